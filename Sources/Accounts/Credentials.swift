/// A username and password that passed the account rules.
public struct Credentials: Sendable, Equatable {
    public let username: String
    public let password: String

    public static let usernameLength = 3...32
    /// The house's byline (Choose Your Destiny's own stories): no account may publish under it.
    public static let reservedUsernames: Set<String> = ["trove"]
    public static let passwordMinimumLength = 8
    /// bcrypt reads only the first 72 bytes: a longer password would be silently truncated, so it is refused.
    public static let passwordMaximumBytes = 72

    /// Validates both fields. Usernames are case-insensitive and stored lower-cased.
    public init(username rawUsername: String, password: String) throws(AccountError) {
        let username = rawUsername.trimmingWhitespace().lowercased()
        guard Self.usernameLength.contains(username.count) else {
            throw .invalidUsername("A username has 3 to 32 characters.")
        }
        guard username.unicodeScalars.allSatisfy(Self.isAllowedInUsername) else {
            throw .invalidUsername("A username may hold only letters a–z, digits, '.', '-' and '_'.")
        }
        guard !Self.reservedUsernames.contains(username) else {
            throw .invalidUsername("'\(username)' is kept for Trove's own stories: choose another username.")
        }
        try Self.check(password: password)
        self.username = username
        self.password = password
    }

    /// Throws when `password` breaks the rules (a new account's, or a new password's).
    public static func check(password: String) throws(AccountError) {
        guard password.count >= passwordMinimumLength else {
            throw .invalidPassword("A password has at least 8 characters.")
        }
        guard password.utf8.count <= passwordMaximumBytes else {
            throw .invalidPassword("A password has at most 72 bytes (bcrypt ignores anything longer).")
        }
    }

    private static func isAllowedInUsername(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "0"..."9", ".", "-", "_": true
        default: false
        }
    }
}

extension String {
    func trimmingWhitespace() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
