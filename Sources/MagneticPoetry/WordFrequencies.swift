/// Reads wordfreq's frequency list (`small_en.msgpack`, once un-gzipped): a MessagePack array whose first
/// element is a header and whose element `i` (from 1) lists the words whose frequency is 10^(-i/100):
/// the lower the bucket, the more common the word.
public enum WordFrequencies {
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case notAFrequencyList
        case truncated

        public var description: String {
            switch self {
            case .notAFrequencyList: "not a wordfreq frequency list (expected a MessagePack array of word lists)"
            case .truncated: "the frequency list ends early"
            }
        }
    }

    /// Word → bucket (lower is more common), first bucket wins.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> [String: Int] {
        var reader = Reader(bytes: bytes)
        guard let count = try reader.arrayHeader(), count > 1 else { throw .notAFrequencyList }
        try reader.skip()  // the header map
        var result: [String: Int] = [:]
        for bucket in 1..<count {
            guard let words = try reader.arrayHeader() else { throw .notAFrequencyList }
            for _ in 0..<words {
                guard let word = try reader.string() else { throw .notAFrequencyList }
                if result[word] == nil { result[word] = bucket }
            }
        }
        return result
    }

    /// Just enough MessagePack for this file: arrays, maps, strings, integers, nil and booleans.
    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() throws(ParseError) -> UInt8 {
            guard offset < bytes.count else { throw .truncated }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func integer(bytes count: Int) throws(ParseError) -> Int {
            var value = 0
            for _ in 0..<count { value = value << 8 | Int(try byte()) }
            return value
        }

        mutating func arrayHeader() throws(ParseError) -> Int? {
            let marker = try byte()
            switch marker {
            case 0x90...0x9F: return Int(marker & 0x0F)
            case 0xDC: return try integer(bytes: 2)
            case 0xDD: return try integer(bytes: 4)
            default: return nil
            }
        }

        mutating func string() throws(ParseError) -> String? {
            let marker = try byte()
            let length: Int
            switch marker {
            case 0xA0...0xBF: length = Int(marker & 0x1F)
            case 0xD9: length = try integer(bytes: 1)
            case 0xDA: length = try integer(bytes: 2)
            case 0xDB: length = try integer(bytes: 4)
            default: return nil
            }
            guard offset + length <= bytes.count else { throw .truncated }
            defer { offset += length }
            return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        }

        /// Skips one value of any supported kind.
        mutating func skip() throws(ParseError) {
            let marker = try byte()
            switch marker {
            case 0x00...0x7F, 0xC0, 0xC2, 0xC3, 0xE0...0xFF: return
            case 0x80...0x8F: for _ in 0..<(Int(marker & 0x0F) * 2) { try skip() }
            case 0x90...0x9F: for _ in 0..<Int(marker & 0x0F) { try skip() }
            case 0xA0...0xBF: offset += Int(marker & 0x1F)
            case 0xCC, 0xD0: offset += 1
            case 0xCD, 0xD1: offset += 2
            case 0xCE, 0xD2, 0xCA: offset += 4
            case 0xCF, 0xD3, 0xCB: offset += 8
            case 0xD9: offset += try integer(bytes: 1)
            case 0xDA: offset += try integer(bytes: 2)
            case 0xDE: for _ in 0..<(try integer(bytes: 2) * 2) { try skip() }
            default: throw .notAFrequencyList
            }
            guard offset <= bytes.count else { throw .truncated }
        }
    }
}
