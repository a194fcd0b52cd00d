import Foundation
import SQLKit

/// Failed sign-ins per username and per client address, in the database so every instance throttles alike.
public struct SignInFailureRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func record(username: String, client: String? = nil, at date: Date = Date()) async throws {
        try await database.insert(into: "sign_in_failures")
            .columns("username", "client", "failed_at")
            .values(
                SQLBind(username), client.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null, SQLBind(date.millisecondsSince1970)
            )
            .run()
    }

    public func failures(client: String, since: Date) async throws -> [Date] {
        try await database.select().column("failed_at").from("sign_in_failures")
            .where("client", .equal, client)
            .where("failed_at", .greaterThan, since.millisecondsSince1970)
            .all()
            .map { Date(millisecondsSince1970: try $0.decode(column: "failed_at", as: Int64.self)) }
    }

    public func failures(username: String, since: Date) async throws -> [Date] {
        try await database.select().column("failed_at").from("sign_in_failures")
            .where("username", .equal, username)
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
}
