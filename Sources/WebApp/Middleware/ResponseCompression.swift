import Hummingbird
import Synchronization
import Zlib

/// gzip for answers a client accepts it for: text of at least 1 KB (JSON, pages, CSV), compressed as it
/// goes out; answers with an ETag (the map's points, the OpenAPI document) are compressed once per ETag and
/// kept. Static files come compressed already (`StaticAssets`). Every compressible answer says
/// `Vary: Accept-Encoding`, and a gzip representation's ETag ends in `-gz`, so the two never share a cache
/// entry; the suffix is taken off a request's If-None-Match before the handler compares its own ETag.
struct ResponseCompression: Sendable {
    static let minimumBytes = 1024
    static let suffix = "-gz"
    let kept = KeptCompressions()

    /// The request as the handler should see it: If-None-Match without the gzip suffix, and whether it had one.
    static func withoutGzipSuffix(_ request: Request) -> (request: Request, askedForGzipVariant: Bool) {
        guard let match = request.headers.value(.ifNoneMatch), match.contains(suffix + "\"") else { return (request, false) }
        var head = request.head
        head.headerFields[.ifNoneMatch] = match.replacingOccurrences(of: suffix + "\"", with: "\"")
        return (Request(head: head, body: request.body), true)
    }

    /// Adds Vary, and whether the answer's body is to be gzipped (by `compress`); marks a 304 for the gzip
    /// representation with its ETag. Synchronous, as most answers need nothing more.
    static func prepare(_ response: inout Response, for request: Request, askedForGzipVariant: Bool) -> Bool {
        let compressible = isCompressible(response.headers.value(.contentType), hasETag: response.headers.contains(.eTag))
        let encoding = response.headers.value(.contentEncoding)
        if compressible || encoding != nil {
            if !(response.headers.value(.vary)?.contains("Accept-Encoding") ?? false) {
                response.headers.append(.init(name: .vary, value: "Accept-Encoding"))
            }
        }
        // Without Accept-Encoding there is nothing more to do (wrk and most API clients send none).
        guard let acceptEncoding = request.headers.value(.acceptEncoding), acceptsGzip(acceptEncoding) else { return false }
        if encoding == "gzip" || (response.status == .notModified && askedForGzipVariant) {
            markGzipRepresentation(&response)
        }
        return compressible && encoding == nil && (response.status.code == 200 || response.status.code == 201)
            && (response.body.contentLength ?? 0) >= minimumBytes
    }

    /// Gzips the body `prepare` chose, unless gzip would not make it smaller.
    func compress(_ response: inout Response) async throws {
        let bytes = try await response.body.collected()
        let gzipped = kept.gzipped(bytes, etag: response.headers[.eTag])
        if gzipped.readableBytes < bytes.readableBytes {
            response.body = .init(byteBuffer: gzipped)
            response.headers[.contentEncoding] = "gzip"
            Self.markGzipRepresentation(&response)
        } else {
            response.body = .init(byteBuffer: bytes)
        }
    }

    /// A gzip representation's ETag ends in `-gz`.
    static func markGzipRepresentation(_ response: inout Response) {
        if let etag = response.headers[.eTag], etag.hasSuffix("\""), !etag.hasSuffix(suffix + "\"") {
            response.headers[.eTag] = String(etag.dropLast()) + suffix + "\""
        }
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
        guard let type = contentType else { return false }
        // Compared without lowercasing the header, which would copy it for every answer.
        for text in compressibleTypes where type.utf8.starts(with: text.utf8, by: { $0 | 0x20 == $1 | 0x20 }) { return true }
        return hasETag && type.utf8.starts(with: "application/octet-stream".utf8, by: { $0 | 0x20 == $1 | 0x20 })
    }

    /// Media types (the start of Content-Type) that are compressed; written in lower case.
    static let compressibleTypes = [
        "text/", "application/json", "application/geo+json", "image/svg+xml", "application/manifest+json",
    ]
}

/// The gzip of answers with an ETag, the last few kept: the same bytes are never compressed twice.
final class KeptCompressions: Sendable {
    private let entries = Mutex<[(etag: String, gzipped: ByteBuffer)]>([])
    private let capacity = 16

    func gzipped(_ bytes: ByteBuffer, etag: String?) -> ByteBuffer {
        if let etag, let found = entries.withLock({ $0.first { $0.etag == etag }?.gzipped }) { return found }
        // An answer made for one request is compressed at level 2: half level 4's time for about 6% more bytes
        // (a 9.6 KB nearby answer: 1,552 bytes against 1,467). An answer kept by its ETag is worth level 6.
        let gzipped = ByteBuffer(bytes: Zlib.deflate(Array(bytes.readableBytesView), format: .gzip, level: etag == nil ? 2 : 6))
        if let etag {
            entries.withLock { entries in
                entries.insert((etag, gzipped), at: 0)
                if entries.count > capacity { entries.removeLast() }
            }
        }
        return gzipped
    }
}
