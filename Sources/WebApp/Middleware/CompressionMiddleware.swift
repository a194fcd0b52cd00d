import Hummingbird
import Synchronization
import Zlib

/// gzip for answers a client accepts it for: text of at least 1 KB (JSON, pages, CSV), compressed as it
/// goes out; answers with an ETag (the map's points, the OpenAPI document) are compressed once per ETag and
/// kept. Static files come compressed already (`StaticAssets`). Every compressible answer says
/// `Vary: Accept-Encoding`, and a gzip representation's ETag ends in `-gz`, so the two never share a cache
/// entry; the suffix is taken off a request's If-None-Match before the handler compares its own ETag.
struct CompressionMiddleware: RouterMiddleware {
    typealias Context = TroveRequestContext

    static let minimumBytes = 1024
    static let suffix = "-gz"
    let kept = KeptCompressions()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let accepts = Self.acceptsGzip(request.headers[.acceptEncoding])
        var request = request
        var askedForGzipVariant = false
        if let match = request.headers[.ifNoneMatch], match.contains(Self.suffix + "\"") {
            askedForGzipVariant = true
            var head = request.head
            head.headerFields[.ifNoneMatch] = match.replacingOccurrences(of: Self.suffix + "\"", with: "\"")
            request = Request(head: head, body: request.body)
        }
        var response = try await next(request, context)
        let compressible = Self.isCompressible(response.headers[.contentType], hasETag: response.headers[.eTag] != nil)
        if accepts, compressible, response.headers[.contentEncoding] == nil, response.status.code == 200 || response.status.code == 201,
            let length = response.body.contentLength, length >= Self.minimumBytes
        {
            let bytes = try await response.body.collected()
            let gzipped = kept.gzipped(bytes, etag: response.headers[.eTag])
            if gzipped.readableBytes < bytes.readableBytes {
                response.body = .init(byteBuffer: gzipped)
                response.headers[.contentEncoding] = "gzip"
            } else {
                response.body = .init(byteBuffer: bytes)
            }
        }
        if compressible || response.headers[.contentEncoding] != nil {
            if !(response.headers[.vary]?.contains("Accept-Encoding") ?? false) {
                response.headers.append(.init(name: .vary, value: "Accept-Encoding"))
            }
        }
        let gzipRepresentation =
            response.headers[.contentEncoding] == "gzip" || (response.status == .notModified && askedForGzipVariant && accepts)
        if gzipRepresentation, let etag = response.headers[.eTag], etag.hasSuffix("\""), !etag.hasSuffix(Self.suffix + "\"") {
            response.headers[.eTag] = String(etag.dropLast()) + Self.suffix + "\""
        }
        return response
    }

    /// `gzip` (or `*`) listed without `q=0`.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for part in header.split(separator: ",") {
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = fields.first, coding == "gzip" || coding == "*" else { continue }
            let refused = fields.dropFirst().contains { $0.hasPrefix("q=") && (Double($0.dropFirst(2)) ?? 1) == 0 }
            return !refused
        }
        return false
    }

    /// Text compresses well; a binary answer only when it has an ETag (so it is compressed once: the map's points).
    static func isCompressible(_ contentType: String?, hasETag: Bool) -> Bool {
        guard let type = contentType?.lowercased() else { return false }
        if type.hasPrefix("text/") || type.hasPrefix("application/json") || type.hasPrefix("application/geo+json")
            || type.hasPrefix("image/svg+xml") || type.hasPrefix("application/manifest+json") || type.hasPrefix("text/javascript")
        {
            return true
        }
        return hasETag && type.hasPrefix("application/octet-stream")
    }
}

/// The gzip of answers with an ETag, the last few kept: the same bytes are never compressed twice.
final class KeptCompressions: Sendable {
    private let entries = Mutex<[(etag: String, gzipped: ByteBuffer)]>([])
    private let capacity = 16

    func gzipped(_ bytes: ByteBuffer, etag: String?) -> ByteBuffer {
        if let etag, let found = entries.withLock({ $0.first { $0.etag == etag }?.gzipped }) { return found }
        let gzipped = ByteBuffer(bytes: Zlib.deflate(Array(bytes.readableBytesView), format: .gzip, level: etag == nil ? 4 : 6))
        if let etag {
            entries.withLock { entries in
                entries.insert((etag, gzipped), at: 0)
                if entries.count > capacity { entries.removeLast() }
            }
        }
        return gzipped
    }
}
