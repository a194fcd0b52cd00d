/// A JSON value read leniently: trailing commas before `]` or `}` are accepted (published story.json files
/// have them), and anything really malformed is reported with its line and column.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (left: JSONValue, right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The value of a key in an object (the first, if repeated); nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}

public enum LenientJSON {
    public static let maximumDepth = 64

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the end of the document") }
        return value
    }

    struct Parser {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            // A byte-order mark is not part of the document.
            self.bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        }

        func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
            let end = min(position ?? index, bytes.count)
            var line = 1
            var column = 1
            var cursor = 0
            while cursor < end {
                if bytes[cursor] == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if bytes[cursor] & 0xC0 != 0x80 {
                    column += 1  // count characters, not UTF-8 continuation bytes
                }
                cursor += 1
            }
            return JSONSyntaxError(line: line, column: column, message: message)
        }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth < LenientJSON.maximumDepth else { throw error("nested too deeply") }
            guard index < bytes.count else { throw error("the document ends where a value should be") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw error("unexpected character '\(String(decoding: [bytes[index]], as: UTF8.self))'")
            }
        }

        mutating func literal(_ word: String) throws(JSONSyntaxError) {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw error("expected '\(word)'")
            }
            index += expected.count
        }

        mutating func number() throws(JSONSyntaxError) -> Double {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            while index < bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
                    || [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(
                        bytes[index])
            {
                index += 1
            }
            guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
                throw error("not a number", at: start)
            }
            return value
        }

        mutating func string() throws(JSONSyntaxError) -> String {
            let start = index
            index += 1
            var scalars = String.UnicodeScalarView()
            var chunkStart = index
            func flush(_ parser: Parser, to end: Int) {
                scalars.append(contentsOf: String(decoding: parser.bytes[chunkStart..<end], as: UTF8.self).unicodeScalars)
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(self, to: index)
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 {
                    throw error(byte == 0x0A ? "a string runs past the end of its line (missing \")" : "a control character in a string")
                }
                if byte == UInt8(ascii: "\\") {
                    flush(self, to: index)
                    index += 1
                    guard index < bytes.count else { break }
                    switch bytes[index] {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
                    default: throw error("unknown escape '\\\(String(decoding: [bytes[index]], as: UTF8.self))'")
                    }
                    index += 1
                    chunkStart = index
                    continue
                }
                index += 1
            }
            throw error("a string is never closed", at: start)
        }

        /// `\uXXXX`, with surrogate pairs; `index` is left on the last hex digit.
        mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
            func hex(_ parser: inout Parser) throws(JSONSyntaxError) -> UInt32 {
                guard parser.bytes.count - parser.index > 4,
                    let value = UInt32(String(decoding: parser.bytes[parser.index + 1...parser.index + 4], as: UTF8.self), radix: 16)
                else { throw parser.error("a \\u escape needs four hex digits") }
                parser.index += 4
                return value
            }
            let first = try hex(&self)
            if (0xD800...0xDBFF).contains(first), bytes.count - index > 6, bytes[index + 1] == UInt8(ascii: "\\"),
                bytes[index + 2] == UInt8(ascii: "u")
            {
                index += 2
                let second = try hex(&self)
                if (0xDC00...0xDFFF).contains(second), let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) {
                    return scalar
                }
                throw error("a broken surrogate pair")
            }
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            index += 1
            var items: [JSONValue] = []
            while true {
                skipWhitespace()
                guard index < bytes.count else { throw error("a list ([) is never closed") }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("a list ([) is never closed") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }  // a trailing comma is fine
                guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']' in a list") }
            }
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            while true {
                skipWhitespace()
                guard index < bytes.count else { throw error("an object ({) is never closed") }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                guard bytes[index] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
                index += 1
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw error("an object ({) is never closed") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }  // a trailing comma is fine
                guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}' in an object") }
            }
        }
    }
}
