import Foundation
import HTTPTypes
import Hummingbird

/// JSON responses with a chosen status, encoded the same way everywhere (ISO 8601 dates, sorted keys).
enum JSONResponse {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The fields every JSON answer carries, made (and their values checked) once.
    static let contentType = HTTPField(name: .contentType, value: "application/json; charset=utf-8")
    static let noStore = HTTPField(name: .cacheControl, value: "no-store")
    /// Room for the fields the pipeline adds to every answer (`SecurityHeaders`, Vary, a cookie), so they
    /// are appended without the list growing again.
    static let fieldsAdded = SecurityHeaders.fixed.count + 5

    /// An answer that writes itself (`JSONWritable`): straight into the body, with no cast and no encoder.
    static func make(_ value: some JSONWritable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var writer = JSONWriter()
        value.write(to: &writer)
        return make(body: ByteBuffer(bytes: writer.bytes), status: status, headers: headers)
    }

    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        if let writable = value as? any JSONWritable { return make(writable, status: status, headers: headers) }
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            data = Data(#"{"error":{"code":"internal_error","message":"The response could not be encoded."}}"#.utf8)
        }
        return make(body: ByteBuffer(bytes: data), status: status, headers: headers)
    }

    private static func make(body: ByteBuffer, status: HTTPResponse.Status, headers: HTTPFields) -> Response {
        var fields = headers
        fields.reserveCapacity(fields.count + 2 + fieldsAdded)
        fields.append(contentType)
        if !fields.contains(.cacheControl) { fields.append(noStore) }
        return Response(status: status, headers: fields, body: .init(byteBuffer: body))
    }
}

extension APIAnswer where Self: JSONWritable {
    /// An answer that writes itself is known to be one at compile time: no cast at run time.
    func response(from request: Request, context: some RequestContext) -> Response { JSONResponse.make(self) }
}
