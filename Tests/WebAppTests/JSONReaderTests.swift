import ChooseYourDestiny
import Foundation
import MagneticPoetry
import Testing

@testable import WebApp

/// The hand-read JSON must give what JSONDecoder gives, or give up and leave the body to it.
@Suite struct JSONReaderTests {
    typealias SaveBody = PoemsAPIController.SaveBody

    static let plain = """
        {"version": 7, "title": "Moon", "board": {"word_set_id": "nature", "font": "serif", "font_scale": 1.25,
         "magnets": [{"id": "m1", "word": "moon", "x": 0.5, "y": 1, "rotation": -12.5, "z": 3},
                     {"z": 0, "rotation": 0, "y": 0.000001, "x": 0, "word": "déjà vu", "id": "m2"}],
         "extra_words": ["déjà vu", "北京"], "aspect": 0.75}}
        """

    /// Bodies the reader reads: each gives JSONDecoder's value.
    static let read: [String] = [
        plain,
        // No title, no aspect, no magnets; whitespace anywhere JSON allows it.
        #" { "version" : 1 , "board" : { "word_set_id" : "x" , "font" : "sans" , "font_scale" : 1 , "magnets" : [ ] , "extra_words" : [ ] } } "#,
        // A null title and aspect; members the body does not use (of every kind) are skipped.
        #"{"version":1,"title":null,"extra":{"a":[1,true,false,null,"s\"q"]},"board":{"word_set_id":"x","font":"mono","font_scale":2,"magnets":[],"extra_words":[],"aspect":null,"wordSetId":"old"}}"#,
        // Numbers in every form JSON writes them.
        #"{"version":-0,"board":{"word_set_id":"x","font":"sans","font_scale":5E-1,"magnets":[{"id":"a","word":"b","x":1e-2,"y":0.25e+0,"rotation":-180,"z":100000}],"extra_words":[]}}"#,
    ]

    @Test(arguments: read)
    func readsWhatJSONDecoderReads(body: String) throws {
        let data = Data(body.utf8)
        let expected = try JSONDecoder().decode(SaveBody.self, from: data)
        let value = try #require(JSONReader.read(SaveBody.self, from: data), "the reader gave up on \(body)")
        #expect(value.version == expected.version)
        #expect(value.title == expected.title)
        #expect(value.board == expected.board)
        #expect(value.board.aspect == expected.board.aspect)
    }

    /// Bodies the reader leaves to JSONDecoder: what it reads them as, or its error, is the answer.
    static let givenUp: [String] = [
        "", "   ", "null", "[]", #"{"version":1}"#,
        // Escapes, and a control character (invalid JSON).
        plain.replacingOccurrences(of: "Moon", with: #"Mo\"on"#),
        plain.replacingOccurrences(of: "Moon", with: #"Mo\u00f6n"#),
        plain.replacingOccurrences(of: "Moon", with: "Mo\non"),
        // A repeated member.
        plain.replacingOccurrences(of: #""version": 7,"#, with: #""version": 7, "version": 8,"#),
        // Numbers JSON does not write, or an integer with a fraction or out of range.
        plain.replacingOccurrences(of: #""x": 0.5"#, with: #""x": .5"#),
        plain.replacingOccurrences(of: #""x": 0.5"#, with: #""x": 05"#),
        plain.replacingOccurrences(of: #""x": 0.5"#, with: #""x": 1."#),
        plain.replacingOccurrences(of: #""x": 0.5"#, with: #""x": 1e999"#),
        plain.replacingOccurrences(of: #""z": 3"#, with: #""z": 3.0"#),
        plain.replacingOccurrences(of: #""z": 3"#, with: #""z": 1e2"#),
        plain.replacingOccurrences(of: #""z": 3"#, with: #""z": 99999999999999999999"#),
        // A wrong type, a missing member, an unknown font, a null where a value is needed.
        plain.replacingOccurrences(of: #""word": "moon""#, with: #""word": 5"#),
        plain.replacingOccurrences(of: #""rotation": -12.5, "#, with: ""),
        plain.replacingOccurrences(of: #""serif""#, with: #""comic""#),
        plain.replacingOccurrences(of: #""font_scale": 1.25"#, with: #""font_scale": null"#),
        // The keys boards were saved with before snake_case.
        #"{"version":1,"board":{"wordSetId":"x","font":"sans","fontScale":1,"magnets":[],"extraWords":[]}}"#,
        // An unused member with an escape JSON does not have, a \u escape, or nested deeper than the reader goes.
        plain.replacingOccurrences(of: #""version": 7,"#, with: #""version": 7, "unused": "a\xb","#),
        plain.replacingOccurrences(of: #""version": 7,"#, with: #""version": 7, "unused": "a\u0041","#),
        plain.replacingOccurrences(
            of: #""version": 7,"#,
            with: #""version": 7, "unused": \#(String(repeating: "[", count: 40) + String(repeating: "]", count: 40)),"#),
        // Broken syntax, text after the end, invalid UTF-8.
        String(plain.dropLast()), plain + "x", plain.replacingOccurrences(of: #""北京""#, with: #""北京","#),
        plain.replacingOccurrences(of: #""version": 7,"#, with: #""version": 7, "unused": tru,"#),
    ]

    @Test(arguments: givenUp)
    func leavesTheRestToJSONDecoder(body: String) {
        #expect(JSONReader.read(SaveBody.self, from: Data(body.utf8)) == nil)
    }

    @Test func givesUpOnInvalidUTF8() {
        var bytes = Array(Self.plain.utf8)
        bytes[bytes.firstIndex(of: UInt8(ascii: "M"))!] = 0xFF
        #expect(JSONReader.read(SaveBody.self, from: Data(bytes)) == nil)
    }

    /// Through `JSONBody`, a body the reader gave up on still reads (the old keys) or gets JSONDecoder's error.
    @Test func jsonBodyFallsBackToJSONDecoder() throws {
        let legacy = #"{"version":1,"board":{"wordSetId":"x","font":"sans","fontScale":1,"magnets":[],"extraWords":[]}}"#
        #expect(try JSONBody.decode(SaveBody.self, from: Data(legacy.utf8)).board.wordSetId == "x")
        let missing = Self.plain.replacingOccurrences(of: #""rotation": -12.5, "#, with: "")
        #expect {
            try JSONBody.decode(SaveBody.self, from: Data(missing.utf8))
        } throws: { error in
            guard case .invalid(let message) = error as? JSONBodyError else { return false }
            return message == "'board.magnets.[0].rotation' is required."
        }
        #expect {
            try JSONBody.decode(SaveBody.self, from: Data("{".utf8))
        } throws: { error in
            guard case .malformed = error as? JSONBodyError else { return false }
            return true
        }
    }
}

/// Dates in a body: RFC 3339, with or without fractional seconds, in UTC or with an offset; nothing else.
@Suite struct JSONBodyDateTests {
    struct Stamped: Decodable { let at: Date }

    static let read: [(String, Double)] = [
        ("2026-12-02T09:30:00Z", 1_796_203_800),
        ("2026-12-02T09:30:00.250Z", 1_796_203_800.25),
        ("2026-12-02T10:30:00+01:00", 1_796_203_800),
        ("2026-12-02T10:30:00.5+01:00", 1_796_203_800.5),
    ]

    @Test(arguments: read)
    func readsAnRFC3339DateAndTime(text: String, seconds: Double) throws {
        let stamped = try JSONBody.decode(Stamped.self, from: Data(#"{"at":"\#(text)"}"#.utf8))
        #expect(abs(stamped.at.timeIntervalSince1970 - seconds) < 0.001)
    }

    @Test(arguments: ["2026-12-02", "yesterday", "2026-12-02T09:30:00", "2026-13-02T09:30:00Z", ""])
    func refusesAnythingElseAsInvalid(text: String) {
        #expect {
            try JSONBody.decode(Stamped.self, from: Data(#"{"at":"\#(text)"}"#.utf8))
        } throws: { error in
            guard case .invalid(let message) = error as? JSONBodyError else { return false }
            return message.hasPrefix("'at' is not valid")
        }
    }
}

/// A Twine reader's place as stored: read by hand as JSONDecoder reads it, or left to it.
@Suite struct TwineReadingJSONTests {
    static let places: [TwineReading] = [
        TwineReading(seed: 0, choices: [], passage: "Start", entry: ReaderState(history: ["Start"])),
        TwineReading(
            seed: .max, choices: [0, 2, 1], passage: "Déjà vu 北京",
            entry: ReaderState(
                variables: [
                    "gold": .number(12), "ratio": .number(-0.125), "big": .number(1e300), "name": .string("Ada"), "met": .bool(true),
                    "lost": .bool(false), "nothing": .undefined,
                    "bag": .list([.string("key"), .number(3), .list([.bool(true), .list([])]), .undefined]),
                ],
                history: ["Start", "Hall", "Déjà vu 北京"], seed: 1 << 63)),
        // JSONEncoder escapes these; the reader leaves them to JSONDecoder, which reads them.
        TwineReading(
            seed: 7, choices: [1], passage: "A/B", entry: ReaderState(variables: ["quote": .string("say \"hi\"\n")], history: ["A/B"])),
    ]

    @Test(arguments: places)
    func readsWhatJSONDecoderReads(place: TwineReading) throws {
        let stored = String(decoding: try JSONEncoder().encode(place), as: UTF8.self)
        #expect(TwineReading.stored(stored) == place)
        if !stored.contains("\\") {
            #expect(JSONReader.read(TwineReading.self, from: stored) == place, "read by hand: \(stored)")
        }
    }

    @Test func aPlaceNeitherReadsIsNone() {
        let good = #"{"seed":0,"choices":[1],"passage":"Hall","entry":{"variables":{"a":1},"history":["Start"],"seed":0}}"#
        #expect(JSONReader.read(TwineReading.self, from: good)?.entry.variables["a"] == .number(1))
        for broken in [
            "", "{}", String(good.dropLast()), good.replacingOccurrences(of: #""choices":[1]"#, with: #""choices":[1.5]"#),
            good.replacingOccurrences(of: #""seed":0,"c"#, with: #""seed":-1,"c"#),
            good.replacingOccurrences(of: #""a":1"#, with: #""a":1,"a":2"#),
            good.replacingOccurrences(of: #""a":1"#, with: #""a":{"b":1}"#),
            good.replacingOccurrences(
                of: #""a":1"#, with: #""a":\#(String(repeating: "[", count: 40) + String(repeating: "]", count: 40))"#),
        ] {
            #expect(JSONReader.read(TwineReading.self, from: broken) == nil, "\(broken)")
        }
        #expect(TwineReading.stored("{}") == nil)
        #expect(TwineReading.stored(good.replacingOccurrences(of: #""a":1"#, with: #""a":{"b":1}"#)) == nil)
    }
}

/// Numbers: the reader's own reading (exact for short numbers) must give the very `Double` `strtod` gives.
@Suite struct JSONReaderNumberTests {
    struct Number: JSONReadable {
        let value: Double
        init(reading reader: inout JSONReader) throws(JSONReader.GiveUp) { value = try reader.double() }
    }

    static func read(_ text: String) -> Double? { JSONReader.read(Number.self, from: text)?.value }

    @Test func readsEveryNumberAsStrtodDoes() throws {
        let edges = [
            "0", "-0", "0.1", "0.3", "-0.4375", "12", "1e22", "1e23", "1E-22", "1e-23", "123456789012345", "1234567890123456",
            "999999999999999e22", "0.000000000000001", "9007199254740993", "5e-324", "1.7976931348623157e308", "2.2250738585072014e-308",
            "0.1e1", "100e-2", "7e+0", "0.0000000000000000000001", "1.5e0300", "3.14159265358979",
        ]
        var generator = SystemRandomNumberGenerator()
        var random: [String] = []
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            let text = String((0..<digits).map { _ in "0123456789".randomElement(using: &generator)! })
            let point = Int.random(in: 0...digits, using: &generator)
            var number = String(text.prefix(point).drop { $0 == "0" })
            number = (number.isEmpty ? "0" : number) + (point < digits ? "." + text.dropFirst(point) : "")
            if Bool.random(using: &generator) { number += "e\(Int.random(in: -30...30, using: &generator))" }
            random.append(Bool.random(using: &generator) ? "-" + number : number)
        }
        for text in edges + random {
            let expected = try #require(Double(text))
            let value = try #require(Self.read(text), "the reader gave up on \(text)")
            #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) against strtod's \(expected)")
        }
        #expect(Self.read("1e400") == nil, "not finite: JSONDecoder's to refuse")
    }
}

/// A yoga class's change (attendees added and removed, notes, the temperature): read by hand as JSONDecoder reads it.
@Suite struct YogaChangeJSONTests {
    typealias ChangeBody = YogaClassAPIController.ChangeBody

    static let read: [String] = [
        #"{"add":["s1","s2"]}"#,
        #"{"remove":["s1"],"notes":"Hips, then rest.","temperature_c":21.5}"#,
        #" { "add" : [ ] , "remove" : null , "notes" : null , "temperature_c" : null , "unused" : {"a":[1]} } "#,
        #"{"temperature_c":-3}"#,
        "{}",
    ]

    @Test(arguments: read)
    func readsWhatJSONDecoderReads(body: String) throws {
        let data = Data(body.utf8)
        let expected = try JSONDecoder().decode(ChangeBody.self, from: data)
        let value = try #require(JSONReader.read(ChangeBody.self, from: data), "the reader gave up on \(body)")
        #expect(value.add == expected.add)
        #expect(value.remove == expected.remove)
        #expect(value.notes == expected.notes)
        // Left out (keep it), null (clear it) and a number are three different changes.
        #expect(value.temperature.map { $0 } == expected.temperature.map { $0 })
        #expect((value.temperature == nil) == (expected.temperature == nil))
    }

    @Test(arguments: [
        #"{"add":"s1"}"#, #"{"add":[1]}"#, #"{"notes":"a\nb"}"#, #"{"add":["a"],"add":["b"]}"#, #"{"temperature_c":"20"}"#,
        "[]", "", #"{"add":["s1"]"#,
    ])
    func leavesTheRestToJSONDecoder(body: String) {
        #expect(JSONReader.read(ChangeBody.self, from: Data(body.utf8)) == nil)
    }

    @Test func aLeftOutTemperatureIsNotANullOne() throws {
        #expect(try #require(JSONReader.read(ChangeBody.self, from: #"{}"#)).temperature == nil)
        let cleared = try #require(JSONReader.read(ChangeBody.self, from: #"{"temperature_c":null}"#))
        #expect(cleared.temperature != nil && cleared.temperature! == nil)
    }
}

@Suite struct JSONContentTypeTests {
    @Test(arguments: [
        ("application/json", true), ("application/json; charset=utf-8", true), ("Application/JSON", true),
        (" application/json ;charset=UTF-8", true), ("application/merge-patch+json", true), ("text/json", false),
        ("application/jsonx", false), ("text/plain", false), ("", false), ("application/", false),
    ])
    func knowsAJSONBody(contentType: String, isJSON: Bool) {
        #expect(JSONBody.isJSON(contentType) == isJSON)
    }
}
