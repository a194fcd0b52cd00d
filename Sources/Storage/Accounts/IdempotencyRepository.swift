import DatabaseDrivers
import Foundation
import SQLKit

/// The first answer to each `Idempotency-Key` a profile sent, so a request sent again (an offline outbox
/// replaying, a retry after a lost answer) is answered the same and changes nothing twice.
///
/// A keyed request runs in one transaction (`once`): the key is claimed, the request's own writes are made, and its
/// answer is recorded, and all of it commits together or not at all. A process that dies anywhere in between leaves
/// nothing behind, so the retry runs as if it were new; a claim is only ever seen by others once it holds its answer.
/// On PostgreSQL a second request with the same key waits at the claim until the first commits or rolls back; on
/// SQLite the writer's turn already orders them.
public struct IdempotencyRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
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

    /// What became of a keyed request.
    public enum Outcome<Value: Sendable>: Sendable {
        /// The key is new: the request ran, and its writes and answer committed (or rolled back when `run` kept
        /// no answer).
        case ran(Value)
        /// The same key with another request: nothing ran.
        case reused
        /// The request was answered before: give that answer again.
        case answered(Answer)
    }

    /// Runs `run` once for this key, in one transaction with the key's claim: every query `run` makes, through any
    /// repository, joins that transaction (`RequestTransaction`). `run` returns its value and the answer to keep;
    /// with no answer to keep (a server error) everything it wrote is rolled back. When `run` throws, everything it
    /// wrote is rolled back and the key stays free.
    public func once<Value: Sendable>(
        profileID: String, key: String, fingerprint: String, now: Date = Date(),
        _ run: @escaping @Sendable () async throws -> (Value, Answer?)
    ) async throws -> Outcome<Value> {
        do {
            return try await database.transaction { db in
                switch try await Self.claim(on: db, profileID: profileID, key: key, fingerprint: fingerprint, now: now) {
                case .reused: return .reused
                case .answered(let answer): return .answered(answer)
                case .claimed:
                    let (value, answer) = try await RequestTransaction.run(on: db) { try await run() }
                    guard let answer else { throw RolledBack(value: value) }
                    try await Self.record(on: db, profileID: profileID, key: key, answer: answer)
                    return .ran(value)
                }
            }
        } catch let rolledBack as RolledBack<Value> {
            return .ran(rolledBack.value)
        }
    }

    /// Thrown to roll back a request whose answer is not kept, carrying that answer out of the transaction.
    private struct RolledBack<Value: Sendable>: Error {
        let value: Value
    }

    enum Claim {
        /// The key is new; the claim is held until the transaction ends.
        case claimed
        case reused
        case answered(Answer)
    }

    /// Claims the key in the running transaction `db`, or says what is stored for it.
    static func claim(on db: any SQLDatabase, profileID: String, key: String, fingerprint: String, now: Date) async throws
        -> Claim
    {
        let inserted = try await db.insert(into: "idempotency_keys")
            .columns("profile_id", "key", "fingerprint", "created_at")
            .values(SQLBind(profileID), SQLBind(key), SQLBind(fingerprint), SQLBind(now.millisecondsSince1970))
            .ignoringConflicts(with: ["profile_id", "key"])
            .returning("key").first()
        if inserted != nil { return .claimed }
        guard
            let row = try await db.select().columns("fingerprint", "status", "content_type", "body")
                .from("idempotency_keys").where("profile_id", .equal, profileID).where("key", .equal, key).first()
        else { return try await claim(on: db, profileID: profileID, key: key, fingerprint: fingerprint, now: now) }
        guard let status = try row.decode(column: "status", as: Int?.self) else {
            // Left by a version that committed a claim before its answer, by a request that then died: take it.
            try await db.update("idempotency_keys").set("fingerprint", to: fingerprint).set("created_at", to: now.millisecondsSince1970)
                .where("profile_id", .equal, profileID).where("key", .equal, key).run()
            return .claimed
        }
        guard try row.decode(column: "fingerprint", as: String.self) == fingerprint else { return .reused }
        return .answered(
            Answer(
                status: status, contentType: try row.decode(column: "content_type", as: String?.self),
                body: try row.decode(column: "body", as: Data?.self) ?? Data()
            ))
    }

    static func record(on db: any SQLDatabase, profileID: String, key: String, answer: Answer) async throws {
        try await db.update("idempotency_keys")
            .set("status", to: answer.status).set("content_type", to: answer.contentType).set("body", to: answer.body)
            .where("profile_id", .equal, profileID).where("key", .equal, key)
            .run()
    }

    /// Keys are kept at least a day (`Housekeeping` passes a day ago); returns how many went.
    public func deleteOlder(than cutoff: Date) async throws -> Int {
        try await database.delete(from: "idempotency_keys").where("created_at", .lessThan, cutoff.millisecondsSince1970)
            .returning("key").all().count
    }
}
