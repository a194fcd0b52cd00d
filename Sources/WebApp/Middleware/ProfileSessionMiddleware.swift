import Foundation
import HTTPTypes
import Hummingbird
import Storage

/// Finds the visitor's session from the cookie, hands it to the handlers, and writes back any cookie change.
struct ProfileSessionMiddleware: RouterMiddleware {
    typealias Context = TroveRequestContext

    static let cookieName = "trove_session"

    let store: SessionStore
    let alwaysSecure: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let now = Date()
        var current = try await store.session(for: request, now: now)
        let hadStaleCookie = current == nil && request.cookies[Self.cookieName] != nil
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
        var context = context
        context.session = ProfileSession(store: store, current: current)
        var response = try await next(request, context)

        let secure = alwaysSecure || request.headers[.xForwardedProto] == "https"
        switch context.session.cookieChange {
        case .set(let id, let expires):
            response.setCookie(Self.cookie(value: id, expires: expires, secure: secure))
        case .clear:
            response.setCookie(Self.cookie(value: "", expires: Date(timeIntervalSince1970: 0), secure: secure))
        case nil:
            // A response a shared cache may keep must not carry anyone's session cookie.
            let sharedCacheable = response.headers[.cacheControl]?.contains("public") ?? false
            if let extended, let session = current, !sharedCacheable {
                response.setCookie(Self.cookie(value: session.id, expires: extended, secure: secure))
            } else if hadStaleCookie {
                response.setCookie(Self.cookie(value: "", expires: Date(timeIntervalSince1970: 0), secure: secure))
            }
        }
        return response
    }

    static func cookie(value: String, expires: Date, secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: value, expires: expires, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// Session ids are our own tokens; anything else is not looked up at all.
    static func looksLikeSessionID(_ text: String) -> Bool {
        text.count == 43
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
