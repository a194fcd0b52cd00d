import Foundation
import Hummingbird
import Zlib

/// The files under Public/, read into memory at start (they are small) and served with ETags; style sheets and
/// scripts without their comments (`CSSMinifier`, `JSMinifier`).
///
/// Pages link to `/static/<version>/<path>`, where the version is a hash of every file, so those URLs can be
/// cached for a year; the same files are also served unversioned with revalidation, for the manifest and the
/// service worker. Only files found at start exist, so no request path can reach outside the folder.
struct StaticAssets: Sendable {
    struct Asset: Sendable {
        let body: ByteBuffer
        /// The same bytes gzipped at start, when that saves a tenth or more (text; not pictures).
        let gzipped: ByteBuffer?
        let contentType: String
        let etag: String
    }

    let files: [String: Asset]
    let version: String

    init(directory: URL) throws {
        var files: [String: Asset] = [:]
        var combined = FNV1a()
        let root = directory.standardizedFileURL.path
        let paths = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []).sorted()
        for relative in paths where !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            var data = try Data(contentsOf: url)
            if url.pathExtension == "css" { data = Data(CSSMinifier.minified([UInt8](data))) }
            if url.pathExtension == "js" { data = Data(JSMinifier.minified([UInt8](data))) }
            var hash = FNV1a()
            hash.add(data)
            combined.add(Data(relative.utf8))
            combined.add(data)
            let contentType = Self.contentType(for: url.pathExtension)
            var gzipped: ByteBuffer?
            if ResponseCompression.isCompressible(contentType, hasETag: false), data.count >= 256 {
                let compressed = Zlib.deflate([UInt8](data), format: .gzip, level: 9)
                if compressed.count * 10 <= data.count * 9 { gzipped = ByteBuffer(bytes: compressed) }
            }
            files[relative] = Asset(
                body: ByteBuffer(bytes: data),
                gzipped: gzipped,
                contentType: contentType,
                etag: "\"\(hash.hex)\""
            )
        }
        self.files = files
        self.version = String(combined.hex.prefix(12))
    }

    /// Serves `path` (relative to Public/) honouring If-None-Match; nil when there is no such file.
    func response(for path: String, request: Request, cacheControl: String) -> Response? {
        guard let asset = files[path] else { return nil }
        var headers = HTTPFields()
        headers[.eTag] = asset.etag
        headers[.cacheControl] = cacheControl
        headers[.contentType] = asset.contentType
        if request.hasCurrentCopy(etag: asset.etag) {
            return Response(status: .notModified, headers: headers)
        }
        if let gzipped = asset.gzipped, ResponseCompression.acceptsGzip(request.headers[.acceptEncoding]) {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: gzipped))
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
    }

    static func contentType(for fileExtension: String) -> String {
        switch fileExtension.lowercased() {
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "webmanifest": "application/manifest+json; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "ico": "image/x-icon"
        case "txt": "text/plain; charset=utf-8"
        case "woff2": "font/woff2"
        default: "application/octet-stream"
        }
    }
}

/// 64-bit FNV-1a: a fast, stable content hash for ETags and the asset version (not for security).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ data: Data) {
        for byte in data {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
    }

    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
