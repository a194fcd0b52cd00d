import Hummingbird

/// Reading ids and query values, with a 400 that names the bad value instead of a 404 or a 500.
extension Request {
    func queryInt(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = queryValue(name), !text.isEmpty else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw APIError.badRequest(
                "The query parameter '\(name)' must be a whole number\(range == Int.min...Int.max ? "" : " from \(range.lowerBound) to \(range.upperBound)")."
            )
        }
        return value
    }

    func queryString(_ name: String) -> String? {
        queryValue(name).flatMap { $0.isEmpty ? nil : String($0) }
    }

    /// The first value of the query parameter `name`, percent-decoded, as Hummingbird's `uri.queryParameters` reads
    /// it (the name as sent, `+` left alone, a value that does not decode kept as sent), but found in place:
    /// `queryParameters` splits and decodes the whole query again for each name it is asked for (a nearby search
    /// asks for four: 5% of its time in perf).
    func queryValue(_ name: String) -> Substring? {
        guard let query = uri.query else { return nil }
        return Self.queryValue(name, in: query)
    }

    static func queryValue(_ name: String, in query: String) -> Substring? {
        var rest = query[...]
        while !rest.isEmpty {
            let end = rest.utf8.firstIndex(of: UInt8(ascii: "&")) ?? rest.endIndex
            let pair = rest[..<end]
            rest = end == rest.endIndex ? rest[end...] : rest[rest.utf8.index(after: end)...]
            let equals = pair.utf8.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            guard pair.utf8[..<equals].elementsEqual(name.utf8) else { continue }
            let value = equals == pair.endIndex ? pair[equals...] : pair[pair.utf8.index(after: equals)...]
            guard value.utf8.contains(UInt8(ascii: "%")) else { return value }
            return percentDecoded(value).map { $0[...] } ?? value
        }
        return nil
    }

    /// `%XX` sequences as bytes (invalid UTF-8 repaired); nil when a `%` is not followed by two hex digits.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Parameters {
    /// A positive integer path parameter; anything else is a 400.
    func requireID(_ name: String) throws -> Int {
        guard let text = get(name), let value = Int(text), value > 0 else {
            throw APIError.badRequest("'\(get(name) ?? "")' is not a valid id.")
        }
        return value
    }
}

extension Request {
    /// A finite decimal query value; anything else is a 400 naming the parameter.
    func queryDouble(_ name: String) throws -> Double? {
        guard let text = queryValue(name), !text.isEmpty else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw APIError.badRequest("The query parameter '\(name)' must be a number.")
        }
        return value
    }

    func requireQueryDouble(_ name: String) throws -> Double {
        guard let value = try queryDouble(name) else { throw APIError.badRequest("The query parameter '\(name)' is required.") }
        return value
    }

    /// "1", "true" or "yes" are true; absent is false.
    func queryFlag(_ name: String) -> Bool {
        guard let text = queryValue(name) else { return false }
        return ["1", "true", "yes"].contains(text.lowercased())
    }
}

extension Request {
    /// The value of the cookie `name` (the first of that name), read in place from the Cookie header. Hummingbird's
    /// `cookies` splits and copies every cookie to find one, on every request with a session (2–3% of a poem read).
    func cookieValue(_ name: String) -> Substring? {
        guard let header = headers.value(.cookie) else { return nil }
        return Self.cookieValue(name, in: header)
    }

    static func cookieValue(_ name: String, in header: String) -> Substring? {
        let bytes = header.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
            var nameStart = start
            while nameStart < end, bytes[nameStart] == UInt8(ascii: " ") || bytes[nameStart] == UInt8(ascii: "\t") {
                bytes.formIndex(after: &nameStart)
            }
            if let equals = bytes[nameStart..<end].firstIndex(of: UInt8(ascii: "=")), bytes[nameStart..<equals].elementsEqual(name.utf8) {
                return Substring(bytes[bytes.index(after: equals)..<end])
            }
            start = end == bytes.endIndex ? end : bytes.index(after: end)
        }
        return nil
    }
}
