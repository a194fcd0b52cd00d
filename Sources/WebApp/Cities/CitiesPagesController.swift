import CityRoulette
import Foundation
import Hummingbird
import Storage

/// `/cities` (the app), `/cities/{geonameid}` (a city's card) and `/cities/countries/{iso}` (a country).
struct CitiesPagesController {
    let pages: PageRenderer
    let store: CityCatalogStore
    let collection: CityCollectionRepository
    let tileURL: String

    struct AppModel {
        let cityCount: Int
        let citiesImported: Bool
        let collectionCount: Int
        let hasCollection: Bool
        let tileURL: String
    }

    struct CityModel {
        let geonameid: Int
        let name: String
        let countryCode: String
        let countryName: String
        let usState: String
        let population: Int
        let populationText: String
        let latitude: String
        let longitude: String
        let coordinatesText: String
        let timezone: String
        let wikipediaURL: String
        let sunriseISO: String
        let sunsetISO: String
        let polarText: String
        let inCollection: Bool
        let favourite: Bool
        let citiesImported: Bool
        let tileURL: String
    }

    struct CountryModel {
        struct Neighbour {
            let iso: String
            let name: String
            /// Linked only when Trove has the country (a smaller data set may lack it).
            let known: Bool
        }

        struct LargeCity {
            let geonameid: Int
            let name: String
            let populationText: String
        }

        let iso: String
        let iso3: String
        let name: String
        let capital: String
        let continentName: String
        let populationText: String
        let areaText: String
        let currencyName: String
        let currencyCode: String
        let languages: String
        let tld: String
        let phone: String
        let neighbours: [Neighbour]
        let hasNeighbours: Bool
        let largestCities: [LargeCity]
        let boundsText: String
    }

    /// `pages`: the group at `/cities`.
    func addRoutes(to pages: RouterGroup<TroveRequestContext>) {
        pages.get { _, context in
            let profile = try await context.session.requireProfile()
            let catalog = try await store.catalog()
            let count = try await collection.count(profileID: profile.id)
            return self.pages.render(
                "cities", title: "City Roulette · Trove",
                model: AppModel(
                    cityCount: catalog.cities.count, citiesImported: !catalog.isEmpty, collectionCount: count, hasCollection: count > 0,
                    tileURL: tileURL
                ), context: context)
        }
        pages.get("{geonameid}") { _, context in
            let profile = try await context.session.requireProfile()
            let id = try context.parameters.requireID("geonameid")
            let catalog = try await store.catalog()
            guard let city = catalog.city(id: id) else { throw CityError.cityNotFound }
            let entry = try await collection.entry(geonameid: id, profileID: profile.id)
            return self.pages.render(
                "city", title: "\(city.name) · City Roulette", model: cityModel(city, catalog: catalog, entry: entry), context: context)
        }
        pages.get("countries/{iso}") { _, context in
            _ = try await context.session.requireProfile()
            let catalog = try await store.catalog()
            let iso = (context.parameters.get("iso") ?? "").uppercased()
            guard let country = catalog.countries[iso] else { throw CityError.countryNotFound }
            return self.pages.render(
                "country", title: "\(country.name) · City Roulette", model: countryModel(country, catalog: catalog), context: context)
        }
    }

    func cityModel(_ city: City, catalog: CityCatalog, entry: CityCollectionRepository.Entry?) -> CityModel {
        let json = CityJSON(city, catalog: catalog)
        let day = CityDay(city: city, now: Date())
        let iso = ISO8601DateFormatter()
        let polar: String =
            switch day.sun.polar {
            case .day: "The sun does not set today."
            case .night: "The sun does not rise today."
            case nil: ""
            }
        return CityModel(
            geonameid: city.geonameid, name: city.name, countryCode: city.countryCode, countryName: json.country_name,
            usState: city.usState ?? "", population: city.population, populationText: Self.grouped(city.population),
            latitude: String(city.latitude), longitude: String(city.longitude),
            coordinatesText: Self.coordinates(latitude: city.latitude, longitude: city.longitude), timezone: city.timezone,
            wikipediaURL: json.wikipedia_url, sunriseISO: day.sun.sunrise.map(iso.string) ?? "",
            sunsetISO: day.sun.sunset.map(iso.string) ?? "",
            polarText: polar, inCollection: entry != nil, favourite: entry?.favourite ?? false, citiesImported: !catalog.isEmpty,
            tileURL: tileURL
        )
    }

    func countryModel(_ country: Country, catalog: CityCatalog) -> CountryModel {
        let bounds =
            catalog.boundingBoxes[country.iso].map {
                String(format: "N %.2f · S %.2f · W %.2f · E %.2f", $0.north, $0.south, $0.west, $0.east)
            } ?? ""
        let neighbours = country.neighbours.map {
            CountryModel.Neighbour(iso: $0, name: catalog.countries[$0]?.name ?? $0, known: catalog.countries[$0] != nil)
        }
        return CountryModel(
            iso: country.iso, iso3: country.iso3, name: country.name, capital: country.capital, continentName: country.continentName,
            populationText: Self.grouped(country.population), areaText: Self.grouped(Int(country.areaSquareKilometres.rounded())) + " km²",
            currencyName: country.currencyName, currencyCode: country.currencyCode, languages: country.languages,
            tld: country.topLevelDomain, phone: country.phone, neighbours: neighbours, hasNeighbours: !neighbours.isEmpty,
            largestCities: catalog.largestCities(in: country.iso, limit: 20).map {
                .init(geonameid: $0.geonameid, name: $0.name, populationText: Self.grouped($0.population))
            },
            boundsText: bounds
        )
    }

    /// 349296 → "349,296".
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// 43.77925, 11.24626 → "43.7793° N, 11.2463° E".
    static func coordinates(latitude: Double, longitude: Double) -> String {
        String(format: "%.4f", abs(latitude)) + "° " + (latitude >= 0 ? "N" : "S") + ", "
            + String(format: "%.4f", abs(longitude)) + "° " + (longitude >= 0 ? "E" : "W")
    }
}
