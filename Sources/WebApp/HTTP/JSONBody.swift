import Foundation
import Hummingbird

/// Why a JSON request body was refused, each with its status: 415, 413, 400 or 422.
enum JSONBodyError: Error {
    case wrongContentType(String?)
    case tooLarge(Int)
    case malformed(String)
    case invalid(String)

    var apiError: APIError {
        switch self {
        case .wrongContentType(let type):
            APIError(
                .unsupportedMediaType, code: "unsupported_media_type",
                message: "Send the body as application/json\(type.map { ", not \($0)" } ?? "").")
        case .tooLarge(let limit):
            APIError(.contentTooLarge, code: "body_too_large", message: "The request body is over the limit of \(limit) bytes.")
        case .malformed(let detail):
            APIError(.badRequest, code: "malformed_json", message: "The body is not valid JSON: \(detail)")
        case .invalid(let detail):
            .validation(detail)
        }
    }
}

enum JSONBody {
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = date(from: try container.decode(String.self)) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "expected a date and time as in 2026-12-02T09:30:00Z."))
            }
            return date
        }
        return decoder
    }()

    private static let wholeSeconds = Date.ISO8601FormatStyle()
    private static let fractionalSeconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// An RFC 3339 date and time, with or without fractional seconds (`new Date().toISOString()` in a page sends
    /// milliseconds; `.iso8601` alone refused them).
    static func date(from text: String) -> Date? {
        (try? wholeSeconds.parse(text)) ?? (try? fractionalSeconds.parse(text))
    }

    /// Reads and decodes a JSON body, checking its type and size first.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = 1 << 20) async throws -> T {
        try decode(type, from: try await data(from: request, limit: limit))
    }

    /// A JSON body's bytes, its type and size checked, for a caller that reads it its own way.
    static func data(from request: Request, limit: Int = 1 << 20) async throws -> Data {
        let contentType = request.headers[.contentType]
        guard let contentType, Self.isJSON(contentType) else { throw JSONBodyError.wrongContentType(contentType) }
        do {
            return Data(try await request.body.collect(upTo: limit).readableBytesView)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw JSONBodyError.tooLarge(limit)
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let readable = type as? any JSONReadable.Type, let value = JSONReader.read(readable, from: data) as? T { return value }
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            // Only a refused body is parsed a second time, to tell bad syntax (400) from a wrong shape (422):
            // parsing every body twice cost a poem save a sixth of its time (docs/BENCHMARKS.md).
            guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
                throw JSONBodyError.malformed(data.isEmpty ? "the body is empty." : "check its syntax.")
            }
            throw JSONBodyError.invalid(describe(error))
        }
    }

    /// `application/json` or `application/…+json`, in any case, with parameters (`; charset=utf-8`) or not.
    static func isJSON(_ contentType: String) -> Bool {
        // What nearly every client sends, answered before splitting, trimming and lowercasing (1% of a yoga change).
        if contentType == "application/json" { return true }
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    /// What is wrong, naming the place: "'venue.name' is required.".
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the body" : "'" + keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is required."
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) must be \(friendlyName(type))."
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) must be \(friendlyName(type)), not null."
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)) is not valid: \(context.debugDescription)"
        @unknown default:
            return "The body does not have the expected shape."
        }
    }

    private static func friendlyName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "of the documented type"
        }
    }
}
