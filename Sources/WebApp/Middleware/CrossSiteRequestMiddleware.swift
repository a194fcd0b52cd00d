import Hummingbird

/// Refuses state-changing requests that a browser sent from another site (cross-site request forgery).
///
/// Browsers mark every request with `Sec-Fetch-Site` and, for POST and friends, `Origin`; a request with
/// neither comes from a non-browser client, which cannot ride on a visitor's cookie, and is let through.
struct CrossSiteRequestMiddleware: RouterMiddleware {
    typealias Context = TroveRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.isStateChanging(request.method), !Self.isAllowed(request) else {
            return try await next(request, context)
        }
        throw APIError(.forbidden, code: "cross_site_request", message: "Requests from other sites may not change data here.")
    }

    static func isStateChanging(_ method: HTTPRequest.Method) -> Bool {
        ![.get, .head, .options].contains(method)
    }

    static func isAllowed(_ request: Request) -> Bool {
        if let site = request.headers[.secFetchSite] {
            return site == "same-origin" || site == "none"
        }
        guard let origin = request.headers[.origin] else { return true }
        guard let host = request.head.authority else { return false }
        // The Origin's host and port must be this server's, whatever the scheme a proxy terminated.
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}
