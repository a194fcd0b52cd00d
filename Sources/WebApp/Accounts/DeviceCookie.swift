import Foundation
import HTTPTypes
import Hummingbird

/// The `trove_device` cookie: the token of a browser that signed in to an account (`KnownDeviceRepository`). It is
/// sent only to the account's API, outlives signing out, and lets its owner sign in while the username is throttled.
enum DeviceCookie {
    static let name = "trove_device"
    static let lifetime: TimeInterval = 365 * 24 * 60 * 60

    /// The token the request brought, if it has the shape of one of ours.
    static func token(in request: Request) -> String? {
        guard let value = request.cookieValue(name), ProfileSessions.looksLikeSessionID(value) else { return nil }
        return String(value)
    }

    static func headers(token: String, now: Date, request: Request, alwaysSecure: Bool) -> HTTPFields {
        let cookie = Cookie(
            name: name, value: token, expires: now.addingTimeInterval(lifetime), path: "/api/v1/account",
            secure: alwaysSecure || request.headers[.xForwardedProto] == "https", httpOnly: true, sameSite: .strict)
        return [.setCookie: cookie.description]
    }
}
