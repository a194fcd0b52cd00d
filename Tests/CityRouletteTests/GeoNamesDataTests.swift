import Foundation
import Testing

@testable import CityRoulette

@Suite struct GeoNamesDataTests {
    @Test func readsCitiesWithNormalizedSearchKeys() throws {
        let json = #"""
            {"2": {"geonameid": 2, "name": "Sant Julià de Lòria", "latitude": 42.46, "longitude": 1.49, "countrycode": "ad", "population": 8022,
                   "timezone": "Europe/Andorra", "admin1code": "06", "alternatenames": ["San Julia de Loria", "Sant Julià de Lòria", "Сант Жулиа"]},
             "1": {"geonameid": 1, "name": "Nowhere", "latitude": 95, "longitude": 0, "countrycode": "XX", "population": 1, "timezone": "", "admin1code": "", "alternatenames": []},
             "3": {"geonameid": 3, "name": "Plain", "latitude": 1, "longitude": 2, "countrycode": "XX", "population": null, "timezone": "UTC", "admin1code": "01", "alternatenames": []}}
            """#
        let cities = try GeoNamesData.cities(from: Data(json.utf8))
        // Out-of-range coordinates are dropped; ids come in order; country codes upper case.
        #expect(cities.map(\.city.geonameid) == [2, 3])
        #expect(cities[0].city.countryCode == "AD")
        #expect(cities[0].searchKeys == ["sant julia de loria", "san julia de loria", "сант жулиа"])
        #expect(cities[0].spellings == ["Sant Julià de Lòria", "San Julia de Loria", "Сант Жулиа"])
        #expect(SearchKey.spelling(at: 2, joinedSpellings: cities[0].spellings.joined(separator: "\t")) == "Сант Жулиа")
        #expect(cities[1].city.population == 0)
    }

    @Test func namesAUSStateAndNoOtherRegionCode() {
        func city(_ country: String, _ region: String) -> City {
            City(
                geonameid: 1, name: "X", countryCode: country, admin1Code: region, latitude: 0, longitude: 0, population: 0, timezone: "UTC"
            )
        }
        #expect(city("US", "CA").usState == "CA")
        // Tuscany's "16", a US code GeoNames left as a number, or none at all: nothing a person could read.
        #expect(city("IT", "16").usState == nil)
        #expect(city("US", "00").usState == nil)
        #expect(city("US", "").usState == nil)
        #expect(city("CA", "BC").usState == nil)
    }

    @Test func readsCountriesAndRefusesOtherFiles() throws {
        let json =
            #"{"IS": {"name": "Iceland", "iso": "IS", "iso3": "ISL", "continentcode": "EU", "capital": "Reykjavik", "areakm2": 103000, "population": 353574, "currencycode": "ISK", "currencyname": "Krona", "languages": "is,en", "neighbours": "", "tld": ".is", "phone": "354"}}"#
        let countries = try GeoNamesData.countries(from: Data(json.utf8))
        #expect(countries.first?.name == "Iceland" && countries.first?.neighbours == [] && countries.first?.continentName == "Europe")
        #expect(throws: GeoNamesData.FormatError.self) { try GeoNamesData.cities(from: Data("[1, 2]".utf8)) }
        #expect(throws: GeoNamesData.FormatError.self) { try GeoNamesData.countries(from: Data("{\"IS\": 3}".utf8)) }
    }

    @Test func cutsAnObjectIntoObjectsOnlyBetweenItsMembers() throws {
        // Commas, braces and escaped quotes inside strings and nested values are not places to cut.
        let json =
            #" {"1": {"name": "a, {b}", "alternatenames": ["x\",y", "}"]}, "2": {"name": "c"}, "3": {"name": "d,e"}, "4": {"n": [1, {"m": 2}]}} "#
        let whole = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary
        for count in 1...6 {
            let pieces = try #require(GeoNamesData.splitObject(Data(json.utf8), into: count))
            let merged = NSMutableDictionary()
            for piece in pieces { merged.addEntries(from: try #require(try JSONSerialization.jsonObject(with: piece) as? [String: Any])) }
            #expect(merged.isEqual(whole), "cut into \(count)")
        }
        #expect(GeoNamesData.splitObject(Data("[1, 2]".utf8), into: 2) == nil)
        #expect(GeoNamesData.splitObject(Data(#"{"1": "open"#.utf8), into: 2) == nil)
    }
}
