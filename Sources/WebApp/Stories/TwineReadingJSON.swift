import ChooseYourDestiny
import Foundation

/// A reader's place in a Twine story as stored, read by hand for every passage shown: JSONDecoder took a tenth
/// of that request's time (docs/BENCHMARKS.md). Anything its reader does not read goes to JSONDecoder.
extension TwineReading: JSONReadable {
    /// The place stored as JSON text, or nil when it cannot be read (the reader then starts again).
    static func stored(_ text: String) -> TwineReading? {
        JSONReader.read(TwineReading.self, from: text) ?? (try? JSONDecoder().decode(TwineReading.self, from: Data(text.utf8)))
    }

    init(reading reader: inout JSONReader) throws(JSONReader.GiveUp) {
        var seed: UInt64?
        var choices: [Int]?
        var passage: String?
        var entry: ReaderState?
        try reader.object { reader, key throws(JSONReader.GiveUp) in
            switch key {
            case "seed": try JSONReader.once(&seed, try reader.unsignedInteger())
            case "choices":
                var read: [Int] = []
                try reader.array { reader throws(JSONReader.GiveUp) in read.append(try reader.integer()) }
                try JSONReader.once(&choices, read)
            case "passage": try JSONReader.once(&passage, try reader.string())
            case "entry": try JSONReader.once(&entry, try ReaderState(reading: &reader))
            default: try reader.skip()
            }
        }
        guard let seed, let choices, let passage, let entry else { throw JSONReader.GiveUp() }
        self.init(seed: seed, choices: choices, passage: passage, entry: entry)
    }
}

extension ReaderState {
    init(reading reader: inout JSONReader) throws(JSONReader.GiveUp) {
        var variables: [String: TwineValue]?
        var history: [String]?
        var seed: UInt64?
        try reader.object { reader, key throws(JSONReader.GiveUp) in
            switch key {
            case "variables":
                var read: [String: TwineValue] = [:]
                try reader.object { reader, name throws(JSONReader.GiveUp) in
                    guard read.updateValue(try TwineValue(reading: &reader, depth: 0), forKey: name) == nil else {
                        throw JSONReader.GiveUp()
                    }
                }
                try JSONReader.once(&variables, read)
            case "history":
                var read: [String] = []
                try reader.array { reader throws(JSONReader.GiveUp) in read.append(try reader.string()) }
                try JSONReader.once(&history, read)
            case "seed": try JSONReader.once(&seed, try reader.unsignedInteger())
            default: try reader.skip()
            }
        }
        guard let variables, let history, let seed else { throw JSONReader.GiveUp() }
        self.init(variables: variables, history: history, seed: seed)
    }
}

extension TwineValue {
    /// As `init(from:)` decodes it: null is undefined, then a bool, a number, a string or a list of values.
    init(reading reader: inout JSONReader, depth: Int) throws(JSONReader.GiveUp) {
        guard depth < JSONReader.maximumDepth else { throw JSONReader.GiveUp() }
        switch try reader.peek() {
        case UInt8(ascii: "n"):
            _ = try reader.null()
            self = .undefined
        case UInt8(ascii: "t"), UInt8(ascii: "f"): self = .bool(try reader.bool())
        case UInt8(ascii: "\""): self = .string(try reader.string())
        case UInt8(ascii: "["):
            var list: [TwineValue] = []
            try reader.array { reader throws(JSONReader.GiveUp) in list.append(try TwineValue(reading: &reader, depth: depth + 1)) }
            self = .list(list)
        default: self = .number(try reader.double())
        }
    }
}
