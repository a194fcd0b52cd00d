import Foundation
import Hummingbird

extension Request {
    /// Whether If-None-Match names `etag`, so the client's copy is current and 304 will do.
    func hasCurrentCopy(etag: String) -> Bool {
        guard let match = headers[.ifNoneMatch] else { return false }
        return match.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == etag }
    }
}
