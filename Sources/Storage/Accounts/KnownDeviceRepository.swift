import Accounts
import Foundation
import SQLKit

/// Browsers that signed in to an account, by the token of their `trove_device` cookie. A sign-in from one is
/// throttled on its own failures, not on the username's, so guessing elsewhere cannot lock its owner out.
public struct KnownDeviceRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Remembers this browser for the profile and returns the new token; the token it brought (`replacing`), if
    /// any, is forgotten, so a browser holds one token per account it signs in to.
    public func remember(profileID: String, replacing old: String?, now: Date = Date()) async throws -> String {
        let token = Token.make(length: 43)
        try await database.transaction { db in
            if let old { try await db.delete(from: "known_devices").where("token", .equal, old).run() }
            try await db.insert(into: "known_devices")
                .columns("token", "profile_id", "created_at")
                .values(SQLBind(token), SQLBind(profileID), SQLBind(now.millisecondsSince1970))
                .run()
        }
        return token
    }

    /// Whether the token names a browser that signed in to this username's account since `since`.
    public func isKnown(token: String, username: String, since: Date) async throws -> Bool {
        try await database.select()
            .column(SQLColumn("token", table: "known_devices"))
            .from("known_devices")
            .join("profiles", on: SQLColumn("profile_id", table: "known_devices"), .equal, SQLColumn("id", table: "profiles"))
            .where(SQLColumn("token", table: "known_devices"), .equal, SQLBind(token))
            .where(SQLColumn("username", table: "profiles"), .equal, SQLBind(username))
            .where(SQLColumn("created_at", table: "known_devices"), .greaterThan, SQLBind(since.millisecondsSince1970))
            .first() != nil
    }

    /// Forgets the browsers remembered before `before`; returns how many.
    public func deleteOlder(than before: Date) async throws -> Int {
        try await database.delete(from: "known_devices").where("created_at", .lessThan, before.millisecondsSince1970)
            .returning("token").all().count
    }
}
