import Hummingbird

/// A file to save rather than show (exports): its type, a file name, never cached.
enum Download {
    static func response(_ body: ByteBuffer, type: String, filename: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentDisposition] = "attachment; filename=\"\(filename)\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }
}
