import Accounts
import Foundation
import SQLKit

/// Profiles and their credentials.
public struct ProfileRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func createGuest(now: Date = Date()) async throws -> Profile {
        let profile = Profile(id: Token.make(length: 22), username: nil, createdAt: now)
        try await database.insert(into: "profiles")
            .columns("id", "created_at")
            .values(SQLBind(profile.id), SQLBind(now.millisecondsSince1970))
            .run()
        return profile
    }

    public func find(id: String) async throws -> Profile? {
        try await database.select().columns("id", "username", "created_at").from("profiles")
            .where("id", .equal, id)
            .first()
            .map(Self.profile(from:))
    }

    public func credentials(username: String) async throws -> StoredCredentials? {
        guard
            let row = try await database.select().columns("id", "username", "created_at", "password_hash")
                .from("profiles")
                .where("username", .equal, username)
                .first()
        else { return nil }
        guard let hash = try row.decodeNil(column: "password_hash") ? nil : row.decode(column: "password_hash", as: String.self) else {
            return nil
        }
        return StoredCredentials(profile: try Self.profile(from: row), passwordHash: hash)
    }

    /// Turns a guest profile into an account, keeping its id and so all its data.
    public func promote(profileID: String, username: String, passwordHash: String) async throws -> Profile {
        try await database.transaction { db in
            guard
                let current = try await db.select().columns("id", "username", "created_at").from("profiles")
                    .where("id", .equal, profileID).first().map(Self.profile(from:))
            else { throw AccountError.profileNotFound }
            guard current.isGuest else { throw AccountError.alreadySignedIn }
            let taken = try await db.select().column("id").from("profiles").where("username", .equal, username).first()
            guard taken == nil else { throw AccountError.usernameTaken }
            try await db.update("profiles")
                .set("username", to: username)
                .set("password_hash", to: passwordHash)
                .where("id", .equal, profileID)
                .run()
            return Profile(id: current.id, username: username, createdAt: current.createdAt)
        }
    }

    /// Deletes the profile; every table holding its data references it with ON DELETE CASCADE.
    /// Replaces an account's password hash.
    public func setPasswordHash(_ hash: String, profileID: String) async throws {
        try await database.update("profiles").set("password_hash", to: SQLBind(hash)).where("id", .equal, profileID)
            .where("username", .isNot, SQLLiteral.null).run()
    }

    public func delete(id: String) async throws {
        try await database.delete(from: "profiles").where("id", .equal, id).run()
    }

    /// Deletes guest profiles their visitors can no longer reach, with all their data, a batch at a time,
    /// and returns how many went. A guest has no way in but its session cookie, so one whose sessions have
    /// all gone is lost to its visitor. Kept anyway: guests created after `createdBefore` (a guest is created
    /// a moment before its session), and guests who published something others may be reading (a poem's
    /// public link, a story).
    /// `keptBy` holds each app's conditions on the guest `p` (queries selecting its content others may read, such as
    /// `PoemRepository.publishedByGuest`): constant SQL of the apps, never a person's input.
    public func deleteAbandonedGuests(createdBefore: Date, keptBy: [String], batchSize: Int = 500) async throws -> Int {
        var deleted = 0
        var kept = SQLQueryString("")
        for query in keptBy { kept.appendInterpolation(unsafeRaw: " AND NOT EXISTS (\(query))") }
        while true {
            let rows = try await database.raw(
                """
                DELETE FROM profiles WHERE id IN (
                    SELECT id FROM profiles p WHERE p.username IS NULL AND p.created_at < \(bind: createdBefore.millisecondsSince1970)
                    AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.profile_id = p.id)\(kept)
                    LIMIT \(bind: batchSize)
                ) RETURNING id
                """
            ).all()
            deleted += rows.count
            if rows.count < batchSize { return deleted }
        }
    }

    static func profile(from row: any SQLRow) throws -> Profile {
        Profile(
            id: try row.decode(column: "id", as: String.self),
            username: try row.decode(column: "username", as: String?.self),
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self))
        )
    }
}
