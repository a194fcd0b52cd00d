import Foundation

/// JSON text written by hand, for the few answers too hot for JSONEncoder: City Roulette's city lists,
/// where JSONEncoder spent about 20 µs per city (most of a nearby search). Answers that adopt
/// `JSONWritable` go through it; every other answer keeps using JSONEncoder.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the object or array being written needs a comma before its next member.
    private var needsComma = false

    init() {
        bytes.reserveCapacity(4096)
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<S: Sequence>(_ elements: S, _ body: (inout JSONWriter, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements { body(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A member's name; its value follows.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A member whose name is only known at run time (a log line's metadata), escaped as any string.
    mutating func key(named name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ text: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        Self.appendEscaped(text, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A string whose bytes `append` writes itself, each one known to need no escape (a percent-encoded URL).
    mutating func plainString(_ append: (inout [UInt8]) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        append(&bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// `text` as the inside of a JSON string (without its quotes), appended to `bytes`.
    static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        // Most text needs no escape: it goes in whole.
        if let plain = text.utf8.withContiguousStorageIfAvailable({ utf8 -> Bool in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }), plain {
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
    }

    mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        separate()
        // Whole numbers without ".0", as JSONEncoder writes them.
        if value == value.rounded(), abs(value) < 1e15 {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else if !Self.appendShortDecimal(value, to: &bytes) {
            bytes.append(contentsOf: value.description.utf8)
        }
        needsComma = true
    }

    /// `value`, a number with a fractional part, as `description` writes it if it is a decimal of at most six places
    /// between 0.0001 and 10⁹ (a magnet's place, a city's coordinates): the shortest decimal that reads back as
    /// `value`, which `description` searches for, is then that decimal itself, so its digits are written straight
    /// away. That search was most of writing a board (3% of a poem save). False, and nothing written, otherwise.
    private static func appendShortDecimal(_ value: Double, to bytes: inout [UInt8]) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 1e-4, magnitude < 1e9 else { return false }
        // Exact: an integer below 2⁵³, and its division is rounded correctly, so this is the double nearest to
        // the decimal. Two decimals of at most 15 digits are never the same double.
        let millionths = (magnitude * 1e6).rounded()
        guard millionths / 1e6 == magnitude else { return false }
        // Written from the last digit: a sign, up to nine whole digits, the point and six places.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 17) { text in
            var rest = UInt64(millionths)
            var start = text.count
            for _ in 0..<6 {
                start -= 1
                text[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            var end = text.count
            while text[end - 1] == UInt8(ascii: "0") { end -= 1 }
            start -= 1
            text[start] = UInt8(ascii: ".")
            repeat {
                start -= 1
                text[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            if value < 0 {
                start -= 1
                text[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<end]))
        }
        return true
    }

    /// A number, or null without one.
    mutating func number(_ value: Double?) {
        if let value { number(value) } else { null() }
    }

    /// A string, or null without one.
    mutating func string(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    /// A date as JSONResponse's encoder (Foundation's `.iso8601`) writes it: UTC, whole seconds
    /// ("2026-12-03T07:55:39Z"). Written here from the day count, where the format style's calendar was 1.2% of an
    /// `account/me`. Before the Gregorian calendar (1582) and after year 9999 Foundation writes it, as it did.
    mutating func date(_ value: Date) {
        let seconds = value.timeIntervalSince1970.rounded(.down)
        guard seconds >= -12_219_292_800, seconds < 253_402_300_800 else { return string(value.formatted(.iso8601)) }
        let whole = Int(seconds)
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let time = whole - days * 86_400
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        separate()
        bytes.append(UInt8(ascii: "\""))
        func digits(_ number: Int, _ width: Int, then separator: Unicode.Scalar) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(number / divisor % 10))
                divisor /= 10
            }
            bytes.append(UInt8(ascii: separator))
        }
        digits(year, 4, then: "-")
        digits(month, 2, then: "-")
        digits(day, 2, then: "T")
        digits(time / 3600, 2, then: ":")
        digits(time / 60 % 60, 2, then: ":")
        digits(time % 60, 2, then: "Z")
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// The Gregorian year, month and day of a day counted from 1970-01-01, for a day after 0000-03-01 (Howard
    /// Hinnant's `civil_from_days`: years counted from March, so that a leap day ends its year).
    private static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    /// JSON text written by a trusted encoder (a stored document), as it is.
    mutating func raw(_ json: String) {
        separate()
        bytes.append(contentsOf: json.utf8)
        needsComma = true
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}

/// An answer that writes itself with `JSONWriter`; `JSONResponse.make` prefers it to JSONEncoder.
protocol JSONWritable: Encodable {
    func write(to writer: inout JSONWriter)
}
