import Foundation
import SQLKit

/// Failed sign-ins per username and per client address, in the database so every instance throttles alike.
public struct SignInFailureRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// One failed sign-in, or one being tried (counted as failed until `forget` takes it back); `device` is the
    /// token of a known browser it came from (`KnownDeviceRepository`). Returns its id.
    @discardableResult
    public func record(username: String, client: String? = nil, device: String? = nil, at date: Date = Date()) async throws -> Int64 {
        func nullable(_ text: String?) -> any SQLExpression { text.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null }
        let row = try await database.insert(into: "sign_in_failures")
            .columns("username", "client", "device", "failed_at")
            .values(SQLBind(username), nullable(client), nullable(device), SQLBind(date.millisecondsSince1970))
            .returning("id").first()
        return try row?.decode(column: "id", as: Int64.self) ?? 0
    }

    /// Takes back one recorded attempt (it succeeded, or it was refused before its password was checked).
    public func forget(id: Int64) async throws {
        try await database.delete(from: "sign_in_failures").where("id", .equal, id).run()
    }

    public func failures(client: String, since: Date) async throws -> [Date] {
        try await dates(since: since) { $0.where("client", .equal, client) }
    }

    /// The username's failures from browsers not known to its account.
    public func failures(username: String, since: Date) async throws -> [Date] {
        try await dates(since: since) { $0.where("username", .equal, username).where("device", .is, SQLLiteral.null) }
    }

    /// One known browser's failures.
    public func failures(device: String, since: Date) async throws -> [Date] {
        try await dates(since: since) { $0.where("device", .equal, device) }
    }

    private func dates(since: Date, _ which: (SQLSelectBuilder) -> SQLSelectBuilder) async throws -> [Date] {
        try await which(database.select().column("failed_at").from("sign_in_failures"))
            .where("failed_at", .greaterThan, since.millisecondsSince1970)
            .all()
            .map { Date(millisecondsSince1970: try $0.decode(column: "failed_at", as: Int64.self)) }
    }

    /// Forgets the failures of a username (after a successful sign-in) and any older than `before`.
    public func clear(username: String, olderThan before: Date) async throws {
        try await database.delete(from: "sign_in_failures")
            .where("username", .equal, username)
            .orWhere("failed_at", .lessThan, before.millisecondsSince1970)
            .run()
    }

    /// Forgets one known browser's failures (after it signed in) and any older than `before`, leaving the
    /// username's others: a sign-in on the person's own device does not reopen the door to someone guessing.
    public func clear(device: String, olderThan before: Date) async throws {
        try await database.delete(from: "sign_in_failures")
            .where("device", .equal, device)
            .orWhere("failed_at", .lessThan, before.millisecondsSince1970)
            .run()
    }
}
