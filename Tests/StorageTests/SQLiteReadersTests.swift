import DatabaseDrivers
import Foundation
import SQLKit
import TestSupport
import Testing

/// SQLite's SELECTs go to reader connections (SQLiteConnections): they must see every committed write at
/// once, never another request's uncommitted transaction, and must not wait for it.
@Suite struct SQLiteReadersTests {
    @Test func aCommittedWriteIsReadAtOnceFromEveryReader() async throws {
        try await TestDatabase.with(.sqlite, migrate: false) { database in
            let sql = database.sql
            try await sql.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)").run()
            for id in 1...20 {
                try await sql.insert(into: "notes").columns("id", "text").values(SQLBind(id), SQLBind("note \(id)")).run()
                // Several reads in a row: each reader in turn must already see the row.
                for _ in 0..<4 {
                    let count = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all)).from("notes")
                        .first()?.decode(column: "COUNT(*)", as: Int.self)
                    #expect(count == id)
                }
            }
        }
    }

    @Test func anOpenTransactionIsNeitherSeenNorWaitedFor() async throws {
        try await TestDatabase.with(.sqlite, migrate: false) { database in
            let sql = database.sql
            try await sql.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY)").run()
            let inside = AsyncStream.makeStream(of: Void.self)
            let release = AsyncStream.makeStream(of: Void.self)
            let transaction = Task {
                try await sql.withSession { connection in
                    try await connection.raw("BEGIN").run()
                    try await connection.raw("INSERT INTO notes (id) VALUES (1)").run()
                    inside.continuation.yield()
                    for await _ in release.stream { break }
                    try await connection.raw("COMMIT").run()
                }
            }
            for await _ in inside.stream { break }
            // The writer is held by the transaction; a read answers anyway, without the uncommitted row.
            let during = try await sql.select().column("id").from("notes").all()
            #expect(during.isEmpty)
            release.continuation.yield()
            try await transaction.value
            let after = try await sql.select().column("id").from("notes").all()
            #expect(after.count == 1)
        }
    }
}
