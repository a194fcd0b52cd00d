import Foundation
import Hummingbird
import Logging

/// Turns every error into a response: JSON `{"error":{…}}` for API routes and clients that ask for JSON,
/// an error page for people. Anything unexpected is logged with the request id and becomes a 500.
struct ErrorResponses: Sendable {
    let pages: PageRenderer
    let routeMethods: RouteMethods
    /// To show who is signed in on an error page when the error came before the session was found.
    let sessions: SessionStore?

    func response(for error: any Error, request: Request, context: TroveRequestContext) async -> Response {
        let apiError: APIError
        if let notAllowed = methodNotAllowed(error, request: request) {
            apiError = notAllowed
        } else if let known = ErrorMapping.apiError(for: error) {
            apiError = known
            if known.status.code >= 500 {
                context.logger.error("Request failed", metadata: ["error": "\(String(reflecting: error))"])
            }
        } else {
            context.logger.error("Unexpected error", metadata: ["error": "\(String(reflecting: error))"])
            apiError = APIError(
                .internalServerError, code: "internal_error", message: "Something went wrong on our side; it has been logged.")
        }
        var response: Response
        if Self.wantsHTML(request) {
            var context = context
            if context.session.profile == nil, let sessions,
                let session = try? await sessions.session(for: request, now: Date())
            {
                context.session = ProfileSession(store: nil, current: session)
            }
            response = pages.errorPage(status: apiError.status, message: apiError.message, path: request.uri.path, context: context)
        } else {
            response = JSONResponse.make(
                ErrorBody(error: .init(code: apiError.code, message: apiError.message, details: apiError.details)),
                status: apiError.status)
        }
        response.headers.append(contentsOf: apiError.headers)
        return response
    }

    /// The router's 404 for a path that exists with other methods is a 405 that says which.
    func methodNotAllowed(_ error: any Error, request: Request) -> APIError? {
        guard let error = error as? HTTPError, error.status == .notFound,
            let allowed = routeMethods.allowed(for: request.uri.path), !allowed.contains(request.method.rawValue)
        else { return nil }
        var headers = HTTPFields()
        headers[.allow] = allowed.joined(separator: ", ")
        return APIError(
            .methodNotAllowed, code: "method_not_allowed",
            message: "\(request.method.rawValue) is not allowed here: use \(allowed.joined(separator: ", ")).", headers: headers
        )
    }

    /// HTML only for non-API paths requested by something that accepts HTML (a browser navigating).
    static func wantsHTML(_ request: Request) -> Bool {
        guard !request.uri.path.hasPrefix("/api/") else { return false }
        return request.headers[.accept]?.contains("text/html") ?? false
    }
}
