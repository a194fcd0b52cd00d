import Foundation
import Hummingbird

/// JSON responses with a chosen status, encoded the same way everywhere (ISO 8601 dates, sorted keys).
enum JSONResponse {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        let data: Data
        if let writable = value as? any JSONWritable {
            var writer = JSONWriter()
            writable.write(to: &writer)
            data = Data(writer.bytes)
        } else {
            do {
                data = try encoder.encode(value)
            } catch {
                data = Data(#"{"error":{"code":"internal_error","message":"The response could not be encoded."}}"#.utf8)
            }
        }
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = fields[.cacheControl] ?? "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
