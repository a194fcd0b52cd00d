import Hummingbird

/// Reading ids and query values, with a 400 that names the bad value instead of a 404 or a 500.
extension Request {
    func queryInt(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = uri.queryParameters.get(name), !text.isEmpty else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw APIError.badRequest(
                "The query parameter '\(name)' must be a whole number\(range == Int.min...Int.max ? "" : " from \(range.lowerBound) to \(range.upperBound)")."
            )
        }
        return value
    }

    func queryString(_ name: String) -> String? {
        uri.queryParameters.get(name).flatMap { $0.isEmpty ? nil : $0 }
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
        guard let text = uri.queryParameters.get(name), !text.isEmpty else { return nil }
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
        guard let text = uri.queryParameters.get(name) else { return false }
        return ["1", "true", "yes"].contains(text.lowercased())
    }
}

extension Request {
    /// The value of the cookie `name` (the first of that name), read in place from the Cookie header. Hummingbird's
    /// `cookies` splits and copies every cookie to find one, on every request with a session (2–3% of a poem read).
    func cookieValue(_ name: String) -> Substring? {
        guard let header = headers[.cookie] else { return nil }
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
