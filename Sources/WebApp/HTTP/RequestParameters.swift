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
