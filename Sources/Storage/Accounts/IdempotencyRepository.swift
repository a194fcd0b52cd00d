import Foundation
import SQLKit

/// The first answer to each `Idempotency-Key` a profile sent, so a request sent again (an offline outbox
/// replaying, a retry after a lost answer) is answered the same and changes nothing twice.
public struct IdempotencyRepository: Sendable {
    let database: any SQLDatabase
    /// A claim older than this whose request never answered (a crashed server) may be taken over.
    let abandonedAfter: TimeInterval

    public init(database: any SQLDatabase, abandonedAfter: TimeInterval = 60) {
        self.database = database
        self.abandonedAfter = abandonedAfter
    }

    /// A stored answer: status, content type and body, replayed as they were.
    public struct Answer: Sendable, Equatable {
        public let status: Int
        public let contentType: String?
        public let body: Data

        public init(status: Int, contentType: String?, body: Data) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }

    public enum Claim: Sendable, Equatable {
        /// The key is new: answer the request, then `record` or `release`.
        case claimed
        /// The same key with another request.
        case reused
        /// The same request is being answered right now.
        case inProgress
        /// The request was answered before: give that answer again.
        case answered(Answer)
    }

    public func claim(profileID: String, key: String, fingerprint: String, now: Date = Date()) async throws -> Claim {
        let inserted = try await database.insert(into: "idempotency_keys")
            .columns("profile_id", "key", "fingerprint", "created_at")
            .values(SQLBind(profileID), SQLBind(key), SQLBind(fingerprint), SQLBind(now.millisecondsSince1970))
            .ignoringConflicts(with: ["profile_id", "key"])
            .returning("key").first()
        if inserted != nil { return .claimed }
        guard
            let row = try await database.select().columns("fingerprint", "status", "content_type", "body", "created_at")
                .from("idempotency_keys").where("profile_id", .equal, profileID).where("key", .equal, key).first()
        else { return try await claim(profileID: profileID, key: key, fingerprint: fingerprint, now: now) }
        guard try row.decode(column: "fingerprint", as: String.self) == fingerprint else { return .reused }
        guard let status = try row.decode(column: "status", as: Int?.self) else {
            let claimedAt = Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self))
            guard now.timeIntervalSince(claimedAt) > abandonedAfter else { return .inProgress }
            let taken = try await database.update("idempotency_keys").set("created_at", to: now.millisecondsSince1970)
                .where("profile_id", .equal, profileID).where("key", .equal, key)
                .where("created_at", .equal, claimedAt.millisecondsSince1970).where("status", .is, SQLLiteral.null)
                .returning("key").first()
            return taken == nil ? .inProgress : .claimed
        }
        return .answered(
            Answer(
                status: status, contentType: try row.decode(column: "content_type", as: String?.self),
                body: try row.decode(column: "body", as: Data?.self) ?? Data()
            ))
    }

    public func record(profileID: String, key: String, answer: Answer) async throws {
        try await database.update("idempotency_keys")
            .set("status", to: answer.status).set("content_type", to: answer.contentType).set("body", to: answer.body)
            .where("profile_id", .equal, profileID).where("key", .equal, key)
            .run()
    }

    /// Forgets a claim whose request failed, so sending it again runs it again.
    public func release(profileID: String, key: String) async throws {
        try await database.delete(from: "idempotency_keys")
            .where("profile_id", .equal, profileID).where("key", .equal, key).where("status", .is, SQLLiteral.null)
            .run()
    }

    /// Keys are kept at least a day (`Housekeeping` passes a day ago); returns how many went.
    public func deleteOlder(than cutoff: Date) async throws -> Int {
        try await database.delete(from: "idempotency_keys").where("created_at", .lessThan, cutoff.millisecondsSince1970)
            .returning("key").all().count
    }
}
