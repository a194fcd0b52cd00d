import Hummingbird

/// Refuses state-changing requests that a browser sent from another site (cross-site request forgery).
///
/// Browsers mark every request with `Sec-Fetch-Site` and, for POST and friends, `Origin`; a request with
/// neither comes from a non-browser client, which cannot ride on a visitor's cookie, and is let through.
enum CrossSiteRequests {
    /// Throws 403 `cross_site_request` for a state-changing request another site's page sent.
    static func check(_ request: Request) throws {
        guard isStateChanging(request.method), !isAllowed(request) else { return }
        throw APIError(.forbidden, code: "cross_site_request", message: "Requests from other sites may not change data here.")
    }

    static func isStateChanging(_ method: HTTPRequest.Method) -> Bool {
        method != .get && method != .head && method != .options
    }

    static func isAllowed(_ request: Request) -> Bool {
        if let site = request.headers.value(.secFetchSite) {
            return site == "same-origin" || site == "none"
        }
        guard let origin = request.headers.value(.origin) else { return true }
        guard let host = request.head.authority else { return false }
        // The Origin's host and port must be this server's, whatever the scheme a proxy terminated.
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}
