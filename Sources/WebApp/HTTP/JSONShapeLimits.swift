import Foundation

/// How deep and how many values a JSON document may hold before it is parsed: one linear pass over its bytes, so a
/// document that would take a second of CPU and a gigabyte of memory to parse (ten million zeros in 20 MB) is refused
/// first, at the cost of reading it once.
struct JSONShapeLimits: Sendable {
    let maximumDepth: Int
    let maximumValues: Int

    /// Throws `JSONBodyError.invalid` when `data` nests deeper or holds more values (array elements and object
    /// members, at any depth) than the limits. Syntax is left to the parser.
    func check(_ data: Data) throws {
        var depth = 0
        var values = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                values += 1
                guard depth <= maximumDepth else {
                    throw JSONBodyError.invalid("the document nests deeper than \(maximumDepth) levels.")
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: ","):
                values += 1
                guard values <= maximumValues else {
                    throw JSONBodyError.invalid("the document holds more than \(maximumValues) values.")
                }
            default: break
            }
        }
    }
}
