import HTTPTypes
import Hummingbird

/// The `Idempotency-Key` request header (the IETF httpapi draft's name): what a key may be, and the
/// fingerprint that tells the same request from another one sent with the same key.
enum IdempotencyKey {
    static let header = HTTPField.Name("Idempotency-Key")!

    /// 1 to 255 visible ASCII characters (a UUID, a counter, a quoted string as the draft writes it).
    static func isValid(_ key: String) -> Bool {
        (1...255).contains(key.utf8.count) && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// Method, path with query, and the body's length and two 64-bit hashes: equal for a request sent
    /// again, different for another request. (Not a defence against an attacker: a key belongs to one
    /// profile, which could only confuse itself.)
    static func fingerprint(method: HTTPRequest.Method, uri: String, body: ByteBuffer) -> String {
        var fnv: UInt64 = 0xCBF2_9CE4_8422_2325
        var mixed: UInt64 = 0x9E37_79B9_7F4A_7C15
        body.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                fnv = (fnv ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                mixed = (mixed &+ UInt64(byte) &+ 1) &* 0xBF58_476D_1CE4_E5B9
                mixed ^= mixed >> 31
            }
        }
        return "\(method.rawValue) \(uri) \(body.readableBytes) \(String(fnv, radix: 16)) \(String(mixed, radix: 16))"
    }
}
