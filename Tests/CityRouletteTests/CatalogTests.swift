import Foundation
import Testing

@testable import CityRoulette

/// A catalog of invented places in a few countries, for nearby, countries and surprise rules.
func testCatalog() -> CityCatalog {
    var cities: [City] = []
    // Andorra: a tight cluster. Iceland: two towns far apart. Fiji: both sides of the antimeridian.
    for (index, (latitude, longitude)) in [(42.50, 1.52), (42.46, 1.49), (42.51, 1.53)].enumerated() {
        cities.append(
            City(
                geonameid: 100 + index, name: "Andorran \(index)", countryCode: "AD", admin1Code: "", latitude: latitude,
                longitude: longitude, population: 1000 * (index + 1), timezone: "Europe/Andorra"))
    }
    cities.append(
        City(
            geonameid: 200, name: "Reykjavík", countryCode: "IS", admin1Code: "", latitude: 64.14, longitude: -21.9, population: 118_000,
            timezone: "Atlantic/Reykjavik"))
    cities.append(
        City(
            geonameid: 201, name: "Akureyri", countryCode: "IS", admin1Code: "", latitude: 65.68, longitude: -18.09, population: 18_000,
            timezone: "Atlantic/Reykjavik"))
    cities.append(
        City(
            geonameid: 300, name: "Suva", countryCode: "FJ", admin1Code: "", latitude: -18.14, longitude: 178.44, population: 77_000,
            timezone: "Pacific/Fiji"))
    cities.append(
        City(
            geonameid: 301, name: "Lomaloma", countryCode: "FJ", admin1Code: "", latitude: -17.28, longitude: -178.98, population: 600,
            timezone: "Pacific/Fiji"))
    let countries = ["AD": "Andorra", "IS": "Iceland", "FJ": "Fiji"].map { iso, name in
        Country(
            iso: iso, iso3: "", name: name, capital: "", continentCode: "EU", areaSquareKilometres: 1, population: 1, currencyCode: "",
            currencyName: "", languages: "", neighbours: [], topLevelDomain: "", phone: "")
    }
    return CityCatalog(cities: cities, alternateNames: cities.map { _ in [] }, countries: countries)
}

@Suite struct CatalogTests {
    let catalog = testCatalog()

    @Test func findsCitiesNearAPointNearestFirst() throws {
        let found = try catalog.nearby(latitude: 42.50, longitude: 1.52, radiusKilometres: 10, limit: 30)
        #expect(found.map(\.city.geonameid) == [100, 102, 101])
        #expect(found[0].distanceKilometres < 0.01)
        #expect(try catalog.nearby(latitude: 42.50, longitude: 1.52, radiusKilometres: 10, limit: 2).count == 2)
    }

    @Test func refusesBadCoordinatesRadiiAndLimits() {
        #expect(throws: CityError.self) { try catalog.nearby(latitude: 91, longitude: 0, radiusKilometres: 10, limit: 30) }
        #expect(throws: CityError.self) { try catalog.nearby(latitude: 0, longitude: -180.5, radiusKilometres: 10, limit: 30) }
        #expect(throws: CityError.self) { try catalog.nearby(latitude: .nan, longitude: 0, radiusKilometres: 10, limit: 30) }
        #expect(throws: CityError.self) { try catalog.nearby(latitude: 0, longitude: 0, radiusKilometres: 100.1, limit: 30) }
        #expect(throws: CityError.self) { try catalog.nearby(latitude: 0, longitude: 0, radiusKilometres: 0, limit: 30) }
        #expect(throws: CityError.self) { try catalog.nearby(latitude: 0, longitude: 0, radiusKilometres: 10, limit: 501) }
    }

    @Test func findsACityByItsIDInWhateverOrderTheCitiesCame() {
        let inOrder = testCatalog()
        let shuffled = CityCatalog(cities: inOrder.cities.reversed(), alternateNames: inOrder.cities.map { _ in [] }, countries: [])
        for catalog in [inOrder, shuffled] {
            for id in [100, 101, 102, 200, 201, 300, 301] { #expect(catalog.city(id: id)?.geonameid == id) }
            for id in [0, 99, 103, 250, 302, Int.max] { #expect(catalog.city(id: id) == nil) }
        }
    }

    @Test func derivesCountryBoxesAndListsLargestCities() throws {
        let fiji = try #require(catalog.boundingBoxes["FJ"])
        #expect(fiji.west == 178.44 && fiji.east == -178.98)
        #expect(catalog.largestCities(in: "IS", limit: 5).map(\.name) == ["Reykjavík", "Akureyri"])
        #expect(catalog.cityCount(in: "AD") == 3)
        #expect(catalog.countriesWithCities == ["AD", "FJ", "IS"])
    }

    @Test func encodesMapPointsMostPopulousFirst() {
        let bytes = catalog.mapPoints()
        #expect(bytes.count == 7 * 4)
        // Reykjavík first: -21.9/180 and 64.14/90 scaled to Int16, little-endian.
        let x = Int16(bitPattern: UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        let y = Int16(bitPattern: UInt16(bytes[2]) | UInt16(bytes[3]) << 8)
        #expect(x == Int16((-21.9 / 180 * 32767).rounded()) && y == Int16((64.14 / 90 * 32767).rounded()))
    }
}

@Suite struct SurpriseTests {
    let catalog = testCatalog()

    /// A catalog where only Andorra has cities close enough together to find from most points in its box.
    @Test func findsCitiesAroundARandomPointOfARandomCountry() throws {
        var generator = SeededGenerator(seed: 1)
        var rules = SurpriseRules()
        rules.radiusKilometres = 100
        let outcome = try rules.surprise(in: catalog, history: [], using: &generator)
        #expect(outcome.found)
        let code = try #require(outcome.countryCode)
        #expect(outcome.cities.allSatisfy { $0.city.countryCode == code || $0.distanceKilometres <= 100 })
        #expect(outcome.tries >= 1 && outcome.tries <= 4)
    }

    @Test func avoidsCitiesTheLastTenSearchesShowed() throws {
        var rules = SurpriseRules()
        rules.radiusKilometres = 100
        // Everything already seen: every try finds nothing new, and it gives up after 4 tries.
        let everything = catalog.cities.map(\.geonameid)
        var generator = SeededGenerator(seed: 3)
        let exhausted = try rules.surprise(in: catalog, history: [everything], using: &generator)
        #expect(!exhausted.found && exhausted.tries == 3)  // only 3 countries to try here
        // Seen more than 10 searches ago no longer counts.
        let old = Array(repeating: [Int](), count: 10) + [everything]
        generator = SeededGenerator(seed: 3)
        #expect(try rules.surprise(in: catalog, history: old, using: &generator).found)
    }

    @Test func givesUpAfterFourTries() throws {
        // Eight countries, each one city, all already seen: four tries, then "nothing found".
        let cities = (0..<8).map {
            City(
                geonameid: $0 + 1, name: "C\($0)", countryCode: "C\($0)", admin1Code: "", latitude: Double($0), longitude: 0, population: 1,
                timezone: "")
        }
        let catalog = CityCatalog(cities: cities, alternateNames: cities.map { _ in [] }, countries: [])
        var generator = SeededGenerator(seed: 9)
        let outcome = try SurpriseRules().surprise(in: catalog, history: [cities.map(\.geonameid)], using: &generator)
        #expect(!outcome.found && outcome.tries == 4 && outcome.countryCode == nil && outcome.center == nil)
        // With nothing seen, a one-city country's box is its city: found at the first try.
        generator = SeededGenerator(seed: 9)
        let fresh = try SurpriseRules().surprise(in: catalog, history: [], using: &generator)
        #expect(fresh.found && fresh.tries == 1 && fresh.cities.count == 1)
    }

    @Test func keepsTheTenNewestSearches() {
        let rules = SurpriseRules()
        var history: [[Int]] = []
        for search in 1...12 { history = rules.history(history, adding: [search]) }
        #expect(history == (3...12).reversed().map { [$0] })
    }

    /// A made-up world shaped like GeoNames': towns in clusters (a city and its villages), a few lone hamlets,
    /// big countries with many clusters and micro-states with a handful of towns.
    static func clusteredWorld(generator: inout SeededGenerator) -> CityCatalog {
        var cities: [City] = []
        var id = 1
        for country in 0..<40 {
            let code = String(format: "%02d", country)
            let home = (latitude: Double(country % 8) * 8 - 30, longitude: Double(country / 8) * 30 - 75)
            for cluster in 0..<(country % 6 + 1) * (country % 3 == 0 ? 4 : 1) {
                let centre = (latitude: home.latitude + Double(cluster % 4) * 0.9, longitude: home.longitude + Double(cluster / 4) * 0.9)
                for _ in 0..<Int.random(in: 4...14, using: &generator) {
                    cities.append(
                        City(
                            geonameid: id, name: "Town \(id)", countryCode: code, admin1Code: "",
                            latitude: centre.latitude + Double.random(in: -0.035...0.035, using: &generator),
                            longitude: centre.longitude + Double.random(in: -0.045...0.045, using: &generator),
                            population: Int.random(in: 500...50_000, using: &generator), timezone: "UTC"))
                    id += 1
                }
            }
            for hamlet in 0..<2 {
                cities.append(
                    City(
                        geonameid: id, name: "Hamlet \(id)", countryCode: code, admin1Code: "",
                        latitude: home.latitude - 3 - Double(hamlet), longitude: home.longitude - 3, population: 500, timezone: "UTC"))
                id += 1
            }
        }
        return CityCatalog(cities: cities, alternateNames: cities.map { _ in [] }, countries: [])
    }

    /// The goal: at least 99% of spins find something and the median spin shows at least 5 cities,
    /// with a person's history carried from spin to spin as the server does.
    @Test func almostEverySpinFindsAPlaceWithNeighbours() throws {
        var generator = SeededGenerator(seed: 2026)
        let world = Self.clusteredWorld(generator: &generator)
        let rules = SurpriseRules()
        var history: [[Int]] = []
        var counts: [Int] = []
        for _ in 0..<1000 {
            let outcome = try rules.surprise(in: world, history: history, using: &generator)
            counts.append(outcome.cities.count)
            if outcome.found {
                history = rules.history(history, adding: outcome.cities.map(\.city.geonameid))
                let code = try #require(outcome.countryCode)
                let inTitle = outcome.cities.filter { $0.city.countryCode == code }.count
                #expect(
                    outcome.cities.allSatisfy { city in
                        outcome.cities.filter { $0.city.countryCode == city.city.countryCode }.count <= inTitle
                    })
            }
        }
        let found = counts.filter { $0 > 0 }.count
        #expect(found >= 990, "found something in \(found) of 1000 spins")
        #expect(counts.sorted()[500] >= 5, "median \(counts.sorted()[500]) cities")
    }

    @Test func theTitleIsTheCountryMostCitiesAreIn() {
        func place(_ id: Int, _ code: String) -> NearbyCity {
            NearbyCity(
                city: City(
                    geonameid: id, name: "\(id)", countryCode: code, admin1Code: "", latitude: 0, longitude: 0, population: 1, timezone: ""),
                distanceKilometres: 1)
        }
        #expect(SurpriseRules.majorityCountry([place(1, "TH"), place(2, "TH"), place(3, "KH")], preferring: "KH") == "TH")
        #expect(SurpriseRules.majorityCountry([place(1, "TH"), place(2, "KH")], preferring: "KH") == "KH")
    }

    @Test func bigCountriesAreLikelierButSmallOnesStillComeUp() {
        #expect(SurpriseRules.countryWeight(cityCount: 30_000) / SurpriseRules.countryWeight(cityCount: 1) < 16)
        var generator = SeededGenerator(seed: 5)
        var picks = [0, 0]
        for _ in 0..<2000 { picks[SurpriseRules.weightedIndex([1, 9], using: &generator)] += 1 }
        #expect((150...250).contains(picks[0]), "the light one came up \(picks[0]) times in 2000")
    }
}

@Suite struct CityArticleTitleTests {
    @Test func theCitysOwnArticleNotALandmarkNearIt() {
        let near = ["Florence Cathedral", "Firenze Santa Maria Novella", "Florence", "Florence, Alabama"]
        #expect(CityArticle.title(naming: "Florence", amongNearestFirst: near) == "Florence")
        #expect(
            CityArticle.title(naming: "Springfield", amongNearestFirst: ["Springfield Armory", "Springfield, Illinois"])
                == "Springfield, Illinois")
        #expect(CityArticle.title(naming: "Naples", amongNearestFirst: ["Naples Cathedral", "Naples (city)"]) == "Naples (city)")
        #expect(CityArticle.title(naming: "Sant Julià de Lòria", amongNearestFirst: ["Sant Julia de Loria"]) == "Sant Julia de Loria")
        #expect(CityArticle.title(naming: "Prato", amongNearestFirst: ["Piazza del Duomo (Prato)", "Prato Cathedral"]) == nil)
        #expect(CityArticle.title(naming: "", amongNearestFirst: ["Prato"]) == nil)
    }
}
