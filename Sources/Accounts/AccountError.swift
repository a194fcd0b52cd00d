/// What can go wrong with accounts, in the domain's words; the web layer maps these to HTTP statuses.
public enum AccountError: Error, Equatable, Sendable {
    case invalidUsername(String)
    case invalidPassword(String)
    case usernameTaken
    case alreadySignedIn
    /// `triesLeft`: how many more failures this sign-in may meet before it is throttled, when few are left.
    case wrongCredentials(triesLeft: Int? = nil)
    case tooManyAttempts(retryAfterSeconds: Int)
    case profileNotFound
}
