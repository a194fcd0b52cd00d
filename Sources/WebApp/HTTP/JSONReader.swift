import Foundation

/// JSON read by hand, for the few bodies too hot for JSONDecoder: a poem's board, sent on every move of a magnet,
/// where JSONDecoder took a third of a save's time, and a Twine reader's place, read for every passage shown
/// (docs/BENCHMARKS.md).
///
/// It reads only the plain shape its reader expects. Anything else (an escape in a string, a number where text was
/// expected, a key missing or repeated) makes it give up, and `JSONBody` hands the body to JSONDecoder, which reads
/// it or says what is wrong. So a body read here gives the same value JSONDecoder would, and a refused body the
/// same error.
struct JSONReader {
    /// The reader met something it does not read; JSONDecoder will.
    struct GiveUp: Error {}

    private let bytes: [UInt8]
    private var index = 0

    /// The body read as `type`, or nil when its reader gave up.
    static func read<T: JSONReadable>(_ type: T.Type, from data: Data) -> T? {
        read(type, bytes: [UInt8](data))
    }

    /// JSON text read as `type`, or nil when its reader gave up.
    static func read<T: JSONReadable>(_ type: T.Type, from text: String) -> T? {
        read(type, bytes: Array(text.utf8))
    }

    private static func read<T: JSONReadable>(_ type: T.Type, bytes: [UInt8]) -> T? {
        var reader = JSONReader(bytes: bytes)
        do throws(GiveUp) {
            let value = try T(reading: &reader)
            reader.skipWhitespace()
            return reader.index == reader.bytes.count ? value : nil
        } catch {
            return nil
        }
    }

    /// An object's members: `member` is called with each key and must read its value.
    mutating func object(_ member: (inout JSONReader, String) throws(GiveUp) -> Void) throws(GiveUp) {
        try expect(UInt8(ascii: "{"))
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            switch try next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return
            default: throw GiveUp()
            }
        }
    }

    /// An array's elements: `element` is called for each and must read it.
    mutating func array(_ element: (inout JSONReader) throws(GiveUp) -> Void) throws(GiveUp) {
        try expect(UInt8(ascii: "["))
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try element(&self)
            switch try next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return
            default: throw GiveUp()
            }
        }
    }

    /// A string without escapes or control characters, in valid UTF-8.
    mutating func string() throws(GiveUp) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                // Through a buffer pointer, which the standard library's UTF-8 paths take without generic
                // dispatch (validating an ArraySlice was 10% of a poem save); ASCII needs no validation.
                let text = bytes.withUnsafeBufferPointer { all in
                    let slice = UnsafeBufferPointer(rebasing: all[start..<index])
                    return ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
                }
                index += 1
                guard let text else { throw GiveUp() }
                return text
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { throw GiveUp() }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        throw GiveUp()
    }

    /// A number as JSON writes it, finite.
    mutating func double() throws(GiveUp) -> Double {
        skipWhitespace()
        let start = index
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let integerStart = index
        try integerDigits()
        let integer = integerStart..<index
        var fraction = index..<index
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            guard digits() > 0 else { throw GiveUp() }
            fraction = fractionStart..<index
        }
        var exponent = index..<index
        var negativeExponent = false
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let exponentStart = index
            guard digits() > 0 else { throw GiveUp() }
            exponent = exponentStart..<index
        }
        if let value = exactDouble(
            negative: negative, integer: integer, fraction: fraction, exponent: exponent, negativeExponent: negativeExponent)
        {
            return value
        }
        let value = Double(String(decoding: bytes[start..<index], as: UTF8.self))
        guard let value, value.isFinite else { throw GiveUp() }
        return value
    }

    /// Clinger's fast path: a number of at most 15 significant digits is a `Double` exactly, as is a power of ten up
    /// to 10²², so one multiplication or division of the two rounds correctly, as `strtod` would. Most numbers a
    /// board holds (`0.4375`, `-3.5`, `12`) are read so; nil for the others, which `strtod` reads.
    private func exactDouble(
        negative: Bool, integer: Range<Int>, fraction: Range<Int>, exponent: Range<Int>, negativeExponent: Bool
    ) -> Double? {
        guard integer.count + fraction.count <= 15, exponent.count <= 3 else { return nil }
        var significand: UInt64 = 0
        for position in integer { significand = significand * 10 + UInt64(bytes[position] - UInt8(ascii: "0")) }
        for position in fraction { significand = significand * 10 + UInt64(bytes[position] - UInt8(ascii: "0")) }
        var power = 0
        for position in exponent { power = power * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
        power = (negativeExponent ? -power : power) - fraction.count
        guard let scale = Self.powersOfTen.indices.contains(abs(power)) ? Self.powersOfTen[abs(power)] : nil else { return nil }
        let magnitude = power < 0 ? Double(significand) / scale : Double(significand) * scale
        return negative ? -magnitude : magnitude
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
        1e21, 1e22,
    ]

    /// A whole number written without a fraction or an exponent, within `Int`.
    mutating func integer() throws(GiveUp) -> Int {
        skipWhitespace()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        return try wholeNumber(negative: negative)
    }

    /// A whole number from 0 to `UInt64.max`, written without a fraction or an exponent.
    mutating func unsignedInteger() throws(GiveUp) -> UInt64 {
        skipWhitespace()
        return try wholeNumber(negative: false)
    }

    mutating func bool() throws(GiveUp) -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"):
            try word("true")
            return true
        case UInt8(ascii: "f"):
            try word("false")
            return false
        default: throw GiveUp()
        }
    }

    /// Keeps a member's value read for the first time; a repeated member is JSONDecoder's to judge.
    static func once<T>(_ slot: inout T?, _ value: T) throws(GiveUp) {
        guard slot == nil else { throw GiveUp() }
        slot = value
    }

    /// Reads `null` if it comes next, and says whether it did.
    mutating func null() throws(GiveUp) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        guard index + 4 <= bytes.count, bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "l"),
            bytes[index + 3] == UInt8(ascii: "l")
        else { throw GiveUp() }
        index += 4
        return true
    }

    /// Skips a value of any kind (a member the reader does not use), checking its syntax as it goes.
    mutating func skip() throws(GiveUp) {
        try skip(depth: 0)
    }

    /// Nesting deeper than this is left to JSONDecoder (and so is never a deep recursion here).
    static let maximumDepth = 32

    private mutating func skip(depth: Int) throws(GiveUp) {
        guard depth < Self.maximumDepth else { throw GiveUp() }
        switch try peek() {
        case UInt8(ascii: "{"): try object { reader, _ throws(GiveUp) in try reader.skip(depth: depth + 1) }
        case UInt8(ascii: "["): try array { reader throws(GiveUp) in try reader.skip(depth: depth + 1) }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try word("true")
        case UInt8(ascii: "f"): try word("false")
        case UInt8(ascii: "n"): _ = try null()
        default: _ = try double()
        }
    }

    /// A string whose simple escapes are skipped over; a `\u` escape is left to JSONDecoder.
    private mutating func skipString() throws(GiveUp) {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard String(validating: bytes[start..<index], as: UTF8.self) != nil else { throw GiveUp() }
                index += 1
                return
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count, Array(#""\/bfnrt"#.utf8).contains(bytes[index + 1]) else { throw GiveUp() }
                index += 2
            case 0..<0x20: throw GiveUp()
            default: index += 1
            }
        }
        throw GiveUp()
    }

    private mutating func word(_ text: StaticString) throws(GiveUp) {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw GiveUp() }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { throw GiveUp() }
        index += count
    }

    /// The digits of a whole number (its sign already read), within `T`.
    private mutating func wholeNumber<T: FixedWidthInteger>(negative: Bool) throws(GiveUp) -> T {
        let start = index
        try integerDigits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { throw GiveUp() }
        var value: T = 0
        for position in start..<index {
            let digit = T(bytes[position] - UInt8(ascii: "0"))
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowTimes, !overflowSum else { throw GiveUp() }
            value = sum
        }
        return value
    }

    /// `0`, or a first digit other than 0 and any digits after it.
    private mutating func integerDigits() throws(GiveUp) {
        guard index < bytes.count else { throw GiveUp() }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw GiveUp() }
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func expect(_ byte: UInt8) throws(GiveUp) {
        guard try next() == byte else { throw GiveUp() }
    }

    /// The next byte that is not whitespace, read.
    private mutating func next() throws(GiveUp) -> UInt8 {
        let byte = try peek()
        index += 1
        return byte
    }

    /// The next byte that is not whitespace, left to read: what kind of value comes next.
    mutating func peek() throws(GiveUp) -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw GiveUp() }
        return bytes[index]
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }
}

/// A request body that reads itself with `JSONReader`; `JSONBody` prefers it to JSONDecoder.
protocol JSONReadable: Decodable {
    init(reading reader: inout JSONReader) throws(JSONReader.GiveUp)
}
