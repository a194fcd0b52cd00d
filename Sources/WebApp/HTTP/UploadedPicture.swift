import Foundation
import Hummingbird

/// How a picture someone uploaded (a story's, a poem's background) is answered: shown inline, and under a
/// policy that lets it be nothing but a picture even when opened on its own (no script, no loads, sandboxed),
/// whatever got past the upload checks.
enum UploadedPicture {
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

    static func response(contentType: String, bytes: some Sequence<UInt8>, cache: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = cache
        headers[.contentDisposition] = "inline"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
