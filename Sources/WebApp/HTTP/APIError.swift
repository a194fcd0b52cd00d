import Hummingbird

/// An error with its HTTP status and the stable `code` clients can switch on.
struct APIError: Error {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    var headers: HTTPFields = [:]
    /// Every problem found, when there are several (a story's validation errors).
    var details: [String]?

    init(_ status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:], details: [String]? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.details = details
    }

    static func notFound(_ what: String) -> APIError {
        APIError(.notFound, code: "not_found", message: "\(what) was not found.")
    }

    static func validation(_ message: String) -> APIError {
        APIError(.unprocessableContent, code: "validation_failed", message: message)
    }

    static func badRequest(_ message: String) -> APIError {
        APIError(.badRequest, code: "bad_request", message: message)
    }
}

/// The JSON error body: `{"error":{"code":"…","message":"…"}}`, with `"details":[…]` when there are several problems.
struct ErrorBody: Encodable {
    struct Detail: Encodable {
        let code: String
        let message: String
        var details: [String]?
    }

    let error: Detail
}
