import Accounts
import Foundation
import SQLKit

/// Sign-in sessions, kept in the database so they survive restarts and are shared by every server instance.
public struct SessionRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public struct Session: Sendable, Equatable {
        public let id: String
        public let profile: Profile
        public let expiresAt: Date

        public init(id: String, profile: Profile, expiresAt: Date) {
            self.id = id
            self.profile = profile
            self.expiresAt = expiresAt
        }
    }

    /// Starts a session for the profile and returns its id (the cookie value).
    public func create(profileID: String, now: Date = Date(), lifetime: TimeInterval) async throws -> String {
        let id = Token.make(length: 43)
        try await database.insert(into: "sessions")
            .columns("id", "profile_id", "created_at", "expires_at")
            .values(
                SQLBind(id), SQLBind(profileID),
                SQLBind(now.millisecondsSince1970), SQLBind(now.addingTimeInterval(lifetime).millisecondsSince1970)
            )
            .run()
        return id
    }

    /// The live session with this id and its profile, or nil when unknown or expired.
    public func find(id: String, now: Date = Date()) async throws -> Session? {
        guard
            let row = try await database.select()
                .columns(SQLColumn("id", table: "profiles"), SQLColumn("username"), SQLColumn("created_at", table: "profiles"))
                .column(SQLColumn("expires_at", table: "sessions"))
                .from("sessions")
                .join("profiles", on: SQLColumn("profile_id", table: "sessions"), .equal, SQLColumn("id", table: "profiles"))
                .where(SQLColumn("id", table: "sessions"), .equal, SQLBind(id))
                .where(SQLColumn("expires_at", table: "sessions"), .greaterThan, SQLBind(now.millisecondsSince1970))
                .first()
        else { return nil }
        return Session(
            id: id,
            profile: try ProfileRepository.profile(from: row),
            expiresAt: Date(millisecondsSince1970: try row.decode(column: "expires_at", as: Int64.self))
        )
    }

    public func extend(id: String, until expiry: Date) async throws {
        try await database.update("sessions").set("expires_at", to: expiry.millisecondsSince1970).where("id", .equal, id).run()
    }

    public func delete(id: String) async throws {
        try await database.delete(from: "sessions").where("id", .equal, id).run()
    }

    /// Ends every session of the profile but `kept` (a password change keeps the session that made it).
    public func deleteAll(profileID: String, except kept: String? = nil) async throws {
        var delete = database.delete(from: "sessions").where("profile_id", .equal, profileID)
        if let kept { delete = delete.where("id", .notEqual, kept) }
        try await delete.run()
    }

    /// Deletes the sessions that have expired and returns how many.
    public func deleteExpired(now: Date = Date()) async throws -> Int {
        try await database.delete(from: "sessions").where("expires_at", .lessThanOrEqual, now.millisecondsSince1970)
            .returning("id").all().count
    }
}
