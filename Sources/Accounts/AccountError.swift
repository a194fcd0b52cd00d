/// What can go wrong with accounts, in the domain's words; the web layer maps these to HTTP statuses.
public enum AccountError: Error, Equatable, Sendable {
    case invalidUsername(String)
    case invalidPassword(String)
    case usernameTaken
    case alreadySignedIn
    case wrongCredentials
    case tooManyAttempts(retryAfterSeconds: Int)
    case profileNotFound
}
