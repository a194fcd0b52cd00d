import Accounts
import Hummingbird

/// AccountError as HTTP answers (its status, code and message).
extension AccountError: HTTPMappedError {
    var apiError: APIError {
        switch self {
        case .invalidUsername(let message):
            return APIError(.unprocessableContent, code: "invalid_username", message: message)
        case .invalidPassword(let message):
            return APIError(.unprocessableContent, code: "invalid_password", message: message)
        case .usernameTaken:
            return APIError(.conflict, code: "username_taken", message: "That username is taken: choose another.")
        case .alreadySignedIn:
            return APIError(.conflict, code: "already_signed_in", message: "You are already signed in: sign out first.")
        case .wrongCredentials(let left):
            let warning =
                switch left {
                case nil: ""
                case 0?: " That was the last try for now: sign-in waits 15 minutes."
                case 1?: " 1 more try before sign-in waits 15 minutes."
                case let n?: " \(n) more tries before sign-in waits 15 minutes."
                }
            return APIError(.unauthorized, code: "wrong_credentials", message: "Wrong username or password." + warning)
        case .tooManyAttempts(let seconds):
            var headers = HTTPFields()
            headers[.retryAfter] = String(seconds)
            return APIError(
                .tooManyRequests, code: "too_many_attempts",
                message: "Too many failed sign-ins: try again in \(seconds) seconds.", headers: headers
            )
        case .profileNotFound:
            return .notFound("The profile")
        }
    }
}
