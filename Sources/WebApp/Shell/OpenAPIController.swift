import Foundation
import Hummingbird

/// `GET /api/openapi.json`: the hand-written OpenAPI 3.1 document; a test keeps it equal to the routes.
struct OpenAPIController {
    let document: ByteBuffer
    let etag: String

    init(documentURL: URL) throws {
        let data = try Data(contentsOf: documentURL)
        document = ByteBuffer(bytes: data)
        var hash = FNV1a()
        hash.add(data)
        etag = "\"\(hash.hex)\""
    }

    func addRoutes(to router: Router<TroveRequestContext>) {
        router.get("/api/openapi.json") { request, _ in
            var headers = HTTPFields()
            headers[.cacheControl] = "no-cache"
            headers[.eTag] = etag
            if request.hasCurrentCopy(etag: etag) { return Response(status: .notModified, headers: headers) }
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: document))
        }
    }
}
