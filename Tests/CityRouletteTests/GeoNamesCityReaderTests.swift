import Foundation
import Testing

@testable import CityRoulette

extension GeoNamesData.RawCity: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.geonameid == b.geonameid && a.name == b.name && a.latitude == b.latitude && a.longitude == b.longitude
            && a.countrycode == b.countrycode && a.population == b.population && a.timezone == b.timezone
            && a.admin1code == b.admin1code && a.alternatenames == b.alternatenames
    }
}

/// The hand-written reader must read what JSONDecoder reads, and refuse (so JSONDecoder decides) the rest.
@Suite struct GeoNamesCityReaderTests {
    func decoded(_ json: String) throws -> [GeoNamesData.RawCity] {
        try JSONDecoder().decode([String: GeoNamesData.RawCity].self, from: Data(json.utf8)).values.sorted { $0.geonameid < $1.geonameid }
    }

    func read(_ json: String) throws -> [GeoNamesData.RawCity] {
        try GeoNamesCityReader.cities(in: Data(json.utf8)).sorted { $0.geonameid < $1.geonameid }
    }

    @Test func readsWhatJSONDecoderReads() throws {
        let json = #"""
             {"3038999": {"geonameid": 3038999, "name": "Soldeu", "latitude": 42.57688, "longitude": 1.66769, "countrycode": "AD",
                          "population": 602, "timezone": "Europe/Andorra", "admin1code": "02",
                          "alternatenames": ["Sol'deu", "\u0421\u043e\u043b\u044c\u0434\u0435\u0443", "\u30b9\u30eb\u30c7\u30a6", "Z\u00FCrich"]},
              "2":{"geonameid":2,"name":"Quote \" slash \/ back \\ tab \t nl \n cr \r bs \b ff \f","latitude":-33.5e0,"longitude":-70.25,
                   "countrycode":"CL","population":null,"timezone":null,"admin1code":null,"alternatenames":null},
              "3": {"name": "Emoji \ud83d\ude00 and ünicode as is", "geonameid": 3, "latitude": 1E1, "longitude": -0.0, "countrycode": "XX",
                    "extra": {"nested": [1, 2.5, -3e-2, true, false, null, "s", {"k": []}]}, "more": "x"},
              "4": {"geonameid": 4, "name": "", "latitude": 0, "longitude": 180, "countrycode": "", "population": 0, "alternatenames": []}
            }
            """#
        let cities = try read(json)
        #expect(cities == (try decoded(json)))
        #expect(cities.count == 4)
        #expect(cities[0].name == "Quote \" slash / back \\ tab \t nl \n cr \r bs \u{8} ff \u{c}")
        #expect(cities[1].name == "Emoji 😀 and ünicode as is")
        #expect(cities[3].alternatenames?[1] == "Сольдеу")
        #expect(cities[0].population == nil && cities[1].alternatenames == nil)
    }

    @Test func readsAnEmptyObject() throws {
        #expect(try read(" { } ").isEmpty)
    }

    @Test(arguments: [
        #"[1, 2]"#,
        #"{"1": {"geonameid": 1}}"#,
        #"{"1": {"geonameid": 1, "name": "a", "latitude": 1, "longitude": 1, "countrycode": "A"} x"#,
        #"{"1": {"geonameid": "1", "name": "a", "latitude": 1, "longitude": 1, "countrycode": "A"}}"#,
        #"{"1": {"geonameid": 1.5, "name": "a", "latitude": 1, "longitude": 1, "countrycode": "A"}}"#,
        #"{"1": {"geonameid": 99999999999999999999, "name": "a", "latitude": 1, "longitude": 1, "countrycode": "A"}}"#,
        #"{"1": {"geonameid": 1, "name": "lone \ud83d", "latitude": 1, "longitude": 1, "countrycode": "A"}}"#,
        #"{"1": {"geonameid": 1, "name": "bad \q", "latitude": 1, "longitude": 1, "countrycode": "A"}}"#,
        #"{"1": {"geonameid": 1, "name": "a", "latitude": +1, "longitude": 1, "countrycode": "A"}}"#,
        #"{"1": {"geonameid": 1, "name": "a", "latitude": 1, "longitude": 1, "countrycode": "A",}}"#,
        #"{"1": {"geonameid": 1, "name": "a", "latitude": 1, "longitude": 1, "countrycode": "A"}"#,
        "{\"1\": {\"geonameid\": 1, \"name\": \"raw\ttab\", \"latitude\": 1, \"longitude\": 1, \"countrycode\": \"A\"}}",
    ])
    func refusesWhatItDoesNotExpect(json: String) {
        #expect(throws: GeoNamesCityReader.Unexpected.self) { try read(json) }
    }

    @Test func whatItRefusesJSONDecoderStillDecides() throws {
        // A whole-number population written with a fraction: the reader refuses it, JSONDecoder takes it.
        let json = #"{"1": {"geonameid": 1, "name": "a", "latitude": 1, "longitude": 1, "countrycode": "aa", "population": 8022.0}}"#
        #expect(throws: GeoNamesCityReader.Unexpected.self) { try read(json) }
        let cities = try GeoNamesData.cities(from: Data(json.utf8))
        #expect(cities.map(\.city.population) == [8022])
        #expect(throws: GeoNamesData.FormatError.self) { try GeoNamesData.cities(from: Data(#"{"1": {"geonameid": "x"}}"#.utf8)) }
    }
}
