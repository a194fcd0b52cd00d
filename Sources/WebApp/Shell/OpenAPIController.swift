import Foundation
import Hummingbird

/// `GET /api/openapi.json`: the hand-written OpenAPI 3.1 document; a test keeps it equal to the routes.
struct OpenAPIController {
    let document: ByteBuffer

    init(documentURL: URL) throws {
        document = ByteBuffer(bytes: try Data(contentsOf: documentURL))
    }

    func addRoutes(to router: Router<TroveRequestContext>) {
        router.get("/api/openapi.json") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            headers[.cacheControl] = "no-cache"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: document))
        }
    }
}
