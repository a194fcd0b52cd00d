import Foundation

/// Whoever uses Trove: every visitor gets a guest profile; signing up gives it a username and password.
public struct Profile: Sendable, Equatable, Codable {
    public let id: String
    public let username: String?
    public let createdAt: Date

    public init(id: String, username: String?, createdAt: Date) {
        self.id = id
        self.username = username
        self.createdAt = createdAt
    }

    public var isGuest: Bool { username == nil }
}

/// An account's stored credentials: the profile it belongs to and its bcrypt hash.
public struct StoredCredentials: Sendable {
    public let profile: Profile
    public let passwordHash: String

    public init(profile: Profile, passwordHash: String) {
        self.profile = profile
        self.passwordHash = passwordHash
    }
}
