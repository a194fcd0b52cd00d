import Foundation
import HTTPTypes
import Hummingbird
import Storage

/// Finds the visitor's session from the cookie, hands it to the handlers, and writes back any cookie change.
struct ProfileSessions: Sendable {
    static let cookieName = "trove_session"

    let store: SessionStore
    let alwaysSecure: Bool

    /// What `attach` found, for `writeCookie`.
    struct Found {
        let current: SessionRepository.Session?
        /// The session's new expiry, when this request extended it.
        let extended: Date?
        let hadStaleCookie: Bool
    }

    /// For a request without a cookie: an empty session, which can make a guest, in the context.
    func attachNew(to context: inout TroveRequestContext) -> Found {
        context.session = ProfileSession(store: store, current: nil)
        return Found(current: nil, extended: nil, hadStaleCookie: false)
    }

    /// Puts the session the request's cookie names (or an empty one that can make a guest) into the context.
    func attach(to context: inout TroveRequestContext, request: Request) async throws -> Found {
        let now = Date()
        var current = try await store.session(for: request, now: now)
        let hadStaleCookie = current == nil && request.cookieValue(Self.cookieName) != nil
        // Sliding expiry, written at most about once a day per session rather than on every request.
        var extended: Date?
        if let session = current, session.expiresAt.timeIntervalSince(now) < store.lifetime - 24 * 60 * 60 {
            let expiry = now.addingTimeInterval(store.lifetime)
            try await store.sessions.extend(id: session.id, until: expiry)
            let renewed = SessionRepository.Session(id: session.id, profile: session.profile, expiresAt: expiry)
            store.cache.keep(renewed, now: now)
            current = renewed
            extended = expiry
        }
        context.session = ProfileSession(store: store, current: current)
        return Found(current: current, extended: extended, hadStaleCookie: hadStaleCookie)
    }

    /// The cookie the answer must carry: a new or ended session, a renewed expiry, or a stale cookie cleared.
    func writeCookie(to response: inout Response, found: Found, session: ProfileSession, request: Request) {
        // Most answers carry no cookie: the headers are looked at only when one is written.
        var secure: Bool { alwaysSecure || request.headers.value(.xForwardedProto) == "https" }
        switch session.cookieChange {
        case .set(let id, let expires):
            response.setCookie(Self.cookie(value: id, expires: expires, secure: secure))
        case .clear:
            response.setCookie(Self.cookie(value: "", expires: Date(timeIntervalSince1970: 0), secure: secure))
        case nil:
            if let extended = found.extended, let session = found.current,
                // A response a shared cache may keep must not carry anyone's session cookie.
                !(response.headers.value(.cacheControl)?.contains("public") ?? false)
            {
                response.setCookie(Self.cookie(value: session.id, expires: extended, secure: secure))
            } else if found.hadStaleCookie {
                response.setCookie(Self.cookie(value: "", expires: Date(timeIntervalSince1970: 0), secure: secure))
            }
        }
    }

    static func cookie(value: String, expires: Date, secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: value, expires: expires, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// Session ids are our own tokens; anything else is not looked up at all.
    static func looksLikeSessionID(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 43
            && text.utf8.allSatisfy { $0 == 45 || $0 == 95 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }
}

extension HTTPField.Name {
    static let xForwardedProto = Self("X-Forwarded-Proto")!
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xRequestID = Self("X-Request-Id")!
    static let secFetchSite = Self("Sec-Fetch-Site")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let serviceWorkerAllowed = Self("Service-Worker-Allowed")!
    static let permissionsPolicy = Self("Permissions-Policy")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
}
