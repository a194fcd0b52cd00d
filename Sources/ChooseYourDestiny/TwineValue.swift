import Foundation

/// A story variable's value, as Harlowe and SugarCube stories use them: numbers, strings, booleans and
/// lists (Harlowe's `(a:)`, SugarCube's `[…]`, `(history:)`). Encoded as plain JSON (`3`, `"key"`, `true`,
/// `[…]`, `null` for a SugarCube variable that was never set).
public enum TwineValue: Sendable, Hashable, Codable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case list([TwineValue])
    case undefined

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .undefined
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            self = .list(try container.decode([TwineValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        case .undefined: try container.encodeNil()
        }
    }

    /// As the story formats print it: `3` not `3.0`, lists joined by commas.
    public var text: String {
        switch self {
        case .number(let value):
            if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        case .string(let value): return value
        case .bool(let value): return value ? "true" : "false"
        case .list(let values):
            // A list may hold one long string many times over: its text stops growing past the cap on strings.
            var text = ""
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                text += value.text
                if text.utf8.count > TwineLimits.stringLength { break }
            }
            return text
        case .undefined: return ""
        }
    }

    /// JavaScript's truthiness (SugarCube); Harlowe asks for booleans but the same reading is the kind one.
    public var isTruthy: Bool {
        switch self {
        case .number(let value): value != 0 && !value.isNaN
        case .string(let value): !value.isEmpty
        case .bool(let value): value
        case .list: true
        case .undefined: false
        }
    }

    var typeName: String {
        switch self {
        case .number: "a number"
        case .string: "a string"
        case .bool: "a boolean"
        case .list: "a list"
        case .undefined: "nothing (a variable never set)"
        }
    }

    /// `==` / `eq`: a number and a string of that number are equal.
    func looselyEquals(_ other: TwineValue) -> Bool {
        switch (self, other) {
        case let (.number(a), .string(b)), let (.string(b), .number(a)): Double(b.twineTrimmed) == a
        case let (.bool(a), .number(b)), let (.number(b), .bool(a)): (a ? 1 : 0) == b
        default: self == other
        }
    }
}
