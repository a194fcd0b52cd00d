import CityRoulette
import Foundation
import Testing

/// A catalog of invented places in a few countries, for nearby, countries and surprise rules.
func testCatalog() -> CityCatalog {
    var cities: [City] = []
    // Andorra: a tight cluster. Iceland: two towns far apart. Fiji: both sides of the antimeridian.
    for (index, (latitude, longitude)) in [(42.50, 1.52), (42.46, 1.49), (42.51, 1.53)].enumerated() {
        cities.append(City(geonameid: 100 + index, name: "Andorran \(index)", countryCode: "AD", admin1Code: "", latitude: latitude,
                           longitude: longitude, population: 1000 * (index + 1), timezone: "Europe/Andorra"))
    }
    cities.append(City(geonameid: 200, name: "Reykjavík", countryCode: "IS", admin1Code: "", latitude: 64.14, longitude: -21.9, population: 118_000, timezone: "Atlantic/Reykjavik"))
    cities.append(City(geonameid: 201, name: "Akureyri", countryCode: "IS", admin1Code: "", latitude: 65.68, longitude: -18.09, population: 18_000, timezone: "Atlantic/Reykjavik"))
    cities.append(City(geonameid: 300, name: "Suva", countryCode: "FJ", admin1Code: "", latitude: -18.14, longitude: 178.44, population: 77_000, timezone: "Pacific/Fiji"))
    cities.append(City(geonameid: 301, name: "Lomaloma", countryCode: "FJ", admin1Code: "", latitude: -17.28, longitude: -178.98, population: 600, timezone: "Pacific/Fiji"))
    let countries = ["AD": "Andorra", "IS": "Iceland", "FJ": "Fiji"].map { iso, name in
        Country(iso: iso, iso3: "", name: name, capital: "", continentCode: "EU", areaSquareKilometres: 1, population: 1, currencyCode: "",
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
        let cities = (0..<8).map { City(geonameid: $0 + 1, name: "C\($0)", countryCode: "C\($0)", admin1Code: "", latitude: Double($0), longitude: 0, population: 1, timezone: "") }
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
}
