import Accounts
import CityRoulette
import Foundation
import MagneticPoetry
import ObliqueStrategies
import Testing
import YogiYogini

@testable import ChooseYourDestiny
@testable import Storage
@testable import WebApp

/// The hand-written JSON must say exactly what JSONEncoder says.
@Suite struct JSONWriterTests {
    func parsed(_ data: Data) throws -> NSObject {
        try #require(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? NSObject)
    }

    @Test(arguments: [nil, 0.75, 1.0 / 3.0])
    func writesABoardAsJSONEncoderDoes(aspect: Double?) throws {
        var board = Board(
            wordSetId: "nature \"wild\"", font: .typewriter, fontScale: 1.25,
            magnets: [
                .init(id: "m1", word: "moon", x: 0, y: 1, rotation: -12.5, z: 3),
                .init(id: "m\u{2}", word: "déjà \\ vu\n", x: 0.1, y: 0.000_001, rotation: 180, z: 0),
            ],
            extraWords: ["déjà \\ vu\n", "北京"])
        board.aspect = aspect
        let written = Data(board.jsonText.utf8)
        #expect(try JSONDecoder().decode(Board.self, from: written) == board)
        // The same document (JSONEncoder's order of keys is not fixed: this one's is).
        #expect(try parsed(written) == parsed(try JSONEncoder().encode(board)))
    }

    @Test func writesCitiesAsJSONEncoderDoes() throws {
        let catalog = CityCatalog(
            cities: [
                City(
                    geonameid: 1, name: "Zürich \"Z\" \\ / \n\t\u{1}", countryCode: "CH", admin1Code: "ZH", latitude: 47.36667,
                    longitude: 8.55,
                    population: 341_730, timezone: "Europe/Zurich"),
                City(
                    geonameid: 2, name: "北京", countryCode: "CN", admin1Code: "", latitude: 39.9075, longitude: 116.39723, population: 0,
                    timezone: ""),
            ],
            alternateNames: [[], []], countries: []
        )
        var first = CityJSON(catalog.cities[0], catalog: catalog)
        first.distance_km = 1.23456
        first.matched_name = .some(nil)
        first.favourite = true
        first.position = 3
        var second = CityJSON(catalog.cities[1], catalog: catalog)
        second.matched_name = .some("Peking")
        let answers: [any JSONWritable] = [
            StrategyCard(id: 7, edition: 2, cardNumber: 12, text: "Émphasize \"the\" seams\n\\ /"),
            CitiesAPIController.CitiesAnswer(cities: [first, second]),
            CitiesAPIController.NearbyAnswer(center: .init(latitude: -33.5, longitude: 151), radius_km: 10, cities: [second]),
            CitiesAPIController.CitiesAnswer(cities: []),
        ]
        for answer in answers {
            var writer = JSONWriter()
            answer.write(to: &writer)
            let encoded = try JSONEncoder().encode(answer)
            #expect(try parsed(Data(writer.bytes)) == parsed(encoded))
        }
    }

    @Test func writesTheRunningClassAsJSONResponsesEncoderDoes() throws {
        let started = Date(timeIntervalSince1970: 1_800_000_000.75)
        let classes = [
            YogaClassRepository.RunningClass(
                venueID: "v1", place: VenuePlace(name: "Studio \"Om\"", address: "1 Main St\n", latitude: 51.5, longitude: -0.125),
                startedAt: started, attendees: [.init(studentID: "s1", name: "Ada"), .init(studentID: nil, name: "A drop-in")],
                temperatureCelsius: 21.5, notes: "Hips\tand shoulders"),
            YogaClassRepository.RunningClass(
                venueID: nil, place: VenuePlace(name: "Park", address: "", latitude: nil, longitude: nil), startedAt: started,
                attendees: [], temperatureCelsius: nil, notes: ""),
        ]
        let answers =
            classes.map { YogaClassAPIController.ClassAnswer(class: ClassJSON($0, now: started.addingTimeInterval(125))) }
            + [YogaClassAPIController.ClassAnswer(class: nil)]
        for answer in answers {
            var writer = JSONWriter()
            answer.write(to: &writer)
            #expect(try parsed(Data(writer.bytes)) == parsed(try JSONResponse.encoder.encode(answer)))
        }
    }

    @Test func writesTheRosterAsJSONResponsesEncoderDoes() throws {
        let records = [
            YogaRosterRepository.StudentRecord(
                student: Student(
                    id: "s1", name: "Zoë \"Z\" Ng", joinedOn: "2026-01-02", active: true, typeID: "t1", notes: "Knee\nleft"),
                typeName: "Member", sessionsAttended: 12, lastSeen: Date(timeIntervalSince1970: 1_800_000_000.75)),
            YogaRosterRepository.StudentRecord(
                student: Student(id: "s2", name: "北京", joinedOn: "2025-12-31", active: false, typeID: nil, notes: ""),
                typeName: nil, sessionsAttended: 0, lastSeen: nil),
        ]
        for answer in [YogaRosterAPIController.StudentsAnswer(students: records.map(StudentJSON.init)), .init(students: [])] {
            var writer = JSONWriter()
            answer.write(to: &writer)
            #expect(try parsed(Data(writer.bytes)) == parsed(try JSONResponse.encoder.encode(answer)))
        }
    }

    @Test func writesDatesAsFoundationsISO8601Does() {
        func written(_ date: Date) -> String {
            var writer = JSONWriter()
            writer.date(date)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        // Edges: the epoch and a second either side of it (with fractions, which are dropped), leap days, the turn of
        // centuries that are and are not leap years, the first Gregorian day, the last second of 9999 and after it.
        var moments: [Double] = [
            0, 0.999, -0.5, -1, -86_400.25, 951_782_400, 951_868_799.5, 4_107_542_400, 4_107_628_800, 946_684_799,
            -2_208_988_800.5, -12_219_292_800, -12_219_292_801, 253_402_300_799.9, 253_402_300_800, 1_800_000_000.75,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 { moments.append(Double.random(in: -12_219_292_800..<253_402_300_800, using: &generator)) }
        for moment in moments {
            let date = Date(timeIntervalSince1970: moment)
            #expect(written(date) == "\"\(date.formatted(.iso8601))\"", "\(moment)")
        }
    }

    @Test func writesAProfileAsJSONResponsesEncoderDoes() throws {
        let created = Date(timeIntervalSince1970: 1_800_000_000.75)
        let profiles = [
            Profile(id: "p1", username: "ada \"the\" lovelace", createdAt: created),
            Profile(id: "p2", username: nil, createdAt: created),
        ]
        for profile in profiles {
            let answer = AccountAPIController.ProfileBody(profile)
            var writer = JSONWriter()
            answer.write(to: &writer)
            #expect(try parsed(Data(writer.bytes)) == parsed(try JSONResponse.encoder.encode(answer)))
        }
    }

    @Test func writesATwineStepAsJSONResponsesEncoderDoes() throws {
        let rendered = RenderedPassage(
            passage: "The \"Gate\"", paragraphs: ["*Dark* night.", "Ünïcode — 北京\n"],
            choices: [TwineChoice(text: "Open it", target: "Hall"), TwineChoice(text: "Back", target: "Road", kind: .back)],
            state: ReaderState(), warnings: [], stopped: false)
        let ending = RenderedPassage(passage: "End", paragraphs: [], choices: [], state: ReaderState(), warnings: ["w"], stopped: true)
        let reading = TwineReading(seed: 7, choices: [0, 1], passage: "Gate", entry: ReaderState())
        for passage in [rendered, ending] {
            let answer = StoryPlayAPIController.PlayJSON(
                passage, reading: reading, progress: ReadingProgress(path: ["Road", "Gate"], endingsFound: ["End"]))
            var writer = JSONWriter()
            answer.write(to: &writer)
            #expect(try parsed(Data(writer.bytes)) == parsed(try JSONResponse.encoder.encode(answer)))
        }
    }

    @Test func percentEncodesTheWikipediaSearch() {
        #expect(
            CityJSON.wikipediaURL(name: "São Paulo", countryName: "Brazil")
                == "https://en.wikipedia.org/wiki/Special:Search?search=S%C3%A3o%20Paulo%2C%20Brazil")
    }
}

/// Numbers are written with `description`'s digits (JSONEncoder's), whole numbers as integers.
@Suite struct JSONWriterNumberTests {
    func written(_ value: Double) -> String {
        var writer = JSONWriter()
        writer.number(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Whole numbers below 10¹⁵ as integers (JSONEncoder's "1", not "1.0"), every other number as `description`.
    func expected(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : value.description
    }

    @Test func decimalsOfUpToSixPlacesAreWrittenAsDescriptionWritesThem() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200_000 {
            let places = Int.random(in: 0...7, using: &generator)
            let digits = UInt64.random(in: 0...UInt64(1e15), using: &generator) >> UInt64.random(in: 0...50, using: &generator)
            var value = Double(digits) / pow(10, Double(places))
            if Bool.random(using: &generator) { value = -value }
            #expect(written(value) == expected(value), "\(digits) / 10^\(places)")
        }
    }

    @Test func otherNumbersAndEdgesToo() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100_000 {
            let value = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            guard value.isFinite else { continue }
            #expect(written(value) == expected(value), "\(value)")
        }
        let edges: [Double] = [
            0, -0.0, 1e-4, 9.9999e-5, 0.000_1, 0.000_099_999_9, 0.000_123, 999_999_999.999_999, 1e9, 1e9 + 0.5, 0.1, 0.2, 0.3,
            0.1 + 0.2, 1.0 / 3.0, 0.000_001, 0.000_000_1, 48.853_41, 2.348_8, -33.5, 151.000_001, 1e15, 1e16, 123_456_789.123_456,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, 5e-324,
        ]
        for value in edges {
            #expect(written(value) == expected(value), "\(value)")
        }
    }
}
