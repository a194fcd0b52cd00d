import DatabaseDrivers
import Foundation
import Hummingbird

/// Translates any error into an `APIError`. Domain errors know nothing of HTTP: each app gives its own errors their
/// statuses beside its controllers (`HTTPMappedError`, in the app's folder); what is left here is the web layer's.
enum ErrorMapping {
    static func apiError(for error: any Error) -> APIError? {
        switch error {
        case let error as APIError:
            return error
        case let error as any HTTPMappedError:
            return error.apiError
        case let error as JSONBodyError:
            return error.apiError
        case let error as HTTPError:
            return APIError(error.status, code: code(for: error.status), message: error.body ?? defaultMessage(for: error.status))
        case let error as any HTTPResponseError:
            return APIError(error.status, code: code(for: error.status), message: defaultMessage(for: error.status))
        default:
            return DatabaseOutage(error).map(databaseError)
        }
    }

    /// 503 with Retry-After: nothing was written, and the same request may succeed once the database is back.
    static func databaseError(_ outage: DatabaseOutage) -> APIError {
        let (code, message, retry): (String, String, Int) =
            switch outage {
            case .unreachable: ("database_unavailable", "The database is not answering right now: try again in a moment.", 5)
            case .busy: ("database_busy", "The database is busy: try again in a moment.", 1)
            case .full: ("database_full", "The server's disk is full, so nothing can be saved right now.", 60)
            case .readOnly: ("database_read_only", "The server's database cannot be written right now.", 60)
            case .diskError: ("database_disk_error", "The server's disk failed to read or write: try again later.", 60)
            }
        var headers = HTTPFields()
        headers[.retryAfter] = String(retry)
        return APIError(.serviceUnavailable, code: code, message: message, headers: headers)
    }

    static func code(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "bad_request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 409: "conflict"
        case 413: "body_too_large"
        case 415: "unsupported_media_type"
        case 422: "validation_failed"
        case 429: "too_many_requests"
        case 503: "unavailable"
        default: status.code < 500 ? "client_error" : "server_error"
        }
    }

    static func defaultMessage(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 404: "Nothing here: check the address."
        case 405: "This address does not take that method."
        case 413: "The request body is too large."
        default: status.reasonPhrase.isEmpty ? "Request failed." : status.reasonPhrase + "."
        }
    }
}
