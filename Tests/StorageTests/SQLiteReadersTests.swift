import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization
import TestSupport
import Testing

@testable import DatabaseDrivers

/// SQLite's SELECTs go to reader connections (SQLiteConnections): they must see every committed write at
/// once, never another request's uncommitted transaction, and must not wait for it.
@Suite struct SQLiteReadersTests {
    @Test func aCommittedWriteIsReadAtOnceFromEveryReader() async throws {
        try await TestDatabase.with(.sqlite, migrate: false) { database in
            let sql = database.sql
            try await sql.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)").run()
            for id in 1...20 {
                try await sql.insert(into: "notes").columns("id", "text").values(SQLBind(id), SQLBind("note \(id)")).run()
                // Several reads in a row: each reader in turn, SQLiteNIO's and the quick ones, must already see the row.
                for _ in 0..<4 {
                    let count = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all)).from("notes")
                        .first()?.decode(column: "COUNT(*)", as: Int.self)
                    #expect(count == id)
                    #expect(try await Self.noteQuery.first([id], on: sql)?.decode(column: "text", as: String.self) == "note \(id)")
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
            #expect(try await Self.idQuery.first([1], on: sql) == nil)
            release.continuation.yield()
            try await transaction.value
            let after = try await sql.select().column("id").from("notes").all()
            #expect(after.count == 1)
            #expect(try await Self.idQuery.first([1], on: sql) != nil)
        }
    }

    /// Reads by key, which the quick readers answer.
    static let noteQuery = PreparedQuery(isRead: true) { database, values in
        database.select().column("text").from("notes").where("id", .equal, values[0]).select
    }
    static let idQuery = PreparedQuery(isRead: true) { database, values in
        database.select().column("id").from("notes").where("id", .equal, values[0]).select
    }

    /// A read by key runs in the calling task (a quick reader, its statement kept); a list or a count over a table
    /// (`isShort: false`) and any other SELECT go to SQLiteNIO's readers, on their threads; a write to the writer.
    @Test func eachKindOfStatementGoesToItsConnection() async throws {
        let (writer, reader, quick) = (StatementLog(), StatementLog(), StatementLog())
        let connections = SQLiteConnections(base: writer, readers: [reader], quickReaders: [quick])
        _ = try await Self.noteQuery.first([1], on: connections)
        _ = try await Self.notesQuery.all([], on: connections)
        _ = try await connections.select().column("id").from("notes").all()
        try await connections.insert(into: "notes").columns("id").values(SQLBind(2)).run()
        #expect(quick.statements == [#"SELECT "text" FROM "notes" WHERE "id" = ?1"#])
        #expect(reader.statements == [#"SELECT "id", "text" FROM "notes""#, #"SELECT "id" FROM "notes""#])
        #expect(writer.statements.contains(#"INSERT INTO "notes" ("id") VALUES (?1)"#))
    }

    static let notesQuery = PreparedQuery(isRead: true, isShort: false) { database, _ in
        database.select().columns("id", "text").from("notes").select
    }

    /// A connection that answers nothing and keeps the text of each statement it is given.
    final class StatementLog: SQLDatabase, Sendable {
        let logger = Logger(label: "test")
        let eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.any()
        var dialect: any SQLDialect { SQLiteDialect() }
        private let texts = Mutex<[String]>([])
        var statements: [String] { texts.withLock { $0 } }

        func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
            let sql = serialize(query).sql
            texts.withLock { $0.append(sql) }
            return eventLoop.makeSucceededVoidFuture()
        }
    }

    /// The writer's turn: transactions of many tasks at once run one after another, none lost or interleaved.
    @Test func concurrentTransactionsTakeTheWriterInTurn() async throws {
        try await TestDatabase.with(.sqlite, migrate: false) { database in
            let sql = database.sql
            try await sql.raw("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)").run()
            try await sql.raw("INSERT INTO counter (id, n) VALUES (1, 0)").run()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        try await sql.withSession { connection in
                            try await connection.raw("BEGIN").run()
                            let n =
                                try await connection.select().column("n").from("counter").first()?.decode(column: "n", as: Int.self) ?? -1
                            await Task.yield()
                            try await connection.update("counter").set("n", to: SQLBind(n + 1)).run()
                            try await connection.raw("COMMIT").run()
                        }
                    }
                    group.addTask { try await sql.insert(into: "counter").columns("n").values(SQLBind(-1)).run() }
                }
                try await group.waitForAll()
            }
            let n = try await sql.select().column("n").from("counter").where("id", .equal, SQLBind(1)).first()?.decode(
                column: "n", as: Int.self)
            #expect(n == 50)
            let rows = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all)).from("counter").first()?
                .decode(column: "COUNT(*)", as: Int.self)
            #expect(rows == 51)
        }
    }

    /// Writes share commits (`GroupCommit`): each is answered only once committed, so every reader sees it at once.
    @Test func everyWriteAnsweredIsCommittedWhenWritesShareACommit() async throws {
        try await TestDatabase.with(.sqlite, migrate: false) { database in
            let sql = database.sql
            try await sql.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)").run()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in 1...200 {
                    group.addTask {
                        if id.isMultiple(of: 2) {
                            try await sql.insert(into: "notes").columns("id", "text").values(SQLBind(id), SQLBind("note \(id)")).run()
                        } else {
                            try await sql.transaction { connection in
                                try await connection.insert(into: "notes").columns("id", "text").values(SQLBind(id), SQLBind("draft")).run()
                                try await connection.update("notes").set("text", to: SQLBind("note \(id)")).where("id", .equal, SQLBind(id))
                                    .run()
                            }
                        }
                        #expect(try await Self.noteQuery.first([id], on: sql)?.decode(column: "text", as: String.self) == "note \(id)")
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// A write that fails, alone or as a transaction, takes nothing with it: the writes sharing its commit land, and
    /// nothing of its own does.
    @Test func aFailedWriteInASharedCommitFailsAlone() async throws {
        try await TestDatabase.with(.sqlite, migrate: false) { database in
            let sql = database.sql
            try await sql.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)").run()
            try await sql.insert(into: "notes").columns("id", "text").values(SQLBind(0), SQLBind("taken")).run()
            struct Refused: Error {}
            let failures = try await withThrowingTaskGroup(of: Bool.self) { group in
                for id in 1...90 {
                    group.addTask {
                        do {
                            switch id % 3 {
                            case 0:  // a constraint the statement breaks
                                try await sql.insert(into: "notes").columns("id", "text").values(SQLBind(0), SQLBind("again \(id)")).run()
                            case 1:  // a transaction that gives up after writing
                                try await sql.transaction { connection in
                                    try await connection.insert(into: "notes").columns("id", "text").values(SQLBind(id), SQLBind("x")).run()
                                    throw Refused()
                                }
                            default:
                                try await sql.insert(into: "notes").columns("id", "text").values(SQLBind(id), SQLBind("kept")).run()
                                return false
                            }
                            return false
                        } catch {
                            return true
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(failures == 60)
            let rows = try await sql.select().column("id").column("text").from("notes").orderBy("id").all()
            let kept = try rows.map { try $0.decode(column: "text", as: String.self) }
            #expect(kept == ["taken"] + Array(repeating: "kept", count: 30))
        }
    }
}
