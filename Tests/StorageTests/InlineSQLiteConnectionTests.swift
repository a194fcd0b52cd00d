import DatabaseDrivers
import Foundation
import Logging
import NIOPosix
import SQLKit
import Testing

/// The connection that runs SQLite's statements in the calling task (`InlineSQLiteConnection`): its values, its kept
/// statements, and how it waits for another process holding the database.
@Suite struct InlineSQLiteConnectionTests {
    static func withFile<R>(_ body: (String) async throws -> R) async throws -> R {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trove-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder.appendingPathComponent("test.sqlite").path)
    }

    static func open(_ path: String, busyTimeout: Duration = .seconds(5)) throws -> InlineSQLiteConnection {
        try InlineSQLiteConnection(
            path: path, busyTimeout: busyTimeout, logger: Logger(label: "test"), eventLoop: MultiThreadedEventLoopGroup.singleton.any())
    }

    @Test func valuesOfEveryKindComeBackAsTheyWent() async throws {
        try await Self.withFile { path in
            let db = try Self.open(path)
            defer { db.close() }
            try await db.raw("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)").run()
            let text = "déjà vu 北京 \"quoted\"\nline"
            try await db.insert(into: "t").columns("i", "r", "s", "b", "n")
                .values(SQLBind(Int64.min), SQLBind(0.1), SQLBind(text), SQLBind(Data([0, 1, 255])), SQLLiteral.null).run()
            let row = try #require(try await db.select().columns("i", "r", "s", "b", "n").from("t").first())
            #expect(row.allColumns == ["i", "r", "s", "b", "n"])
            #expect(try row.decode(column: "i", as: Int64.self) == Int64.min)
            #expect(try row.decode(column: "r", as: Double.self) == 0.1)
            #expect(try row.decode(column: "s", as: String.self) == text)
            #expect(try row.decode(column: "b", as: Data.self) == Data([0, 1, 255]))
            #expect(try row.decodeNil(column: "n"))
            #expect(try row.decode(column: "n", as: String?.self) == nil)
            #expect(!row.contains(column: "missing"))
            #expect(throws: (any Error).self) { try row.decode(column: "missing", as: Int.self) }
        }
    }

    /// A statement whose plan looked at a value (SQLite guesses how many rows a LEFT JOIN's `= ?` keeps) was compiled
    /// again on every run, since its values were cleared after each: a roster read spent a tenth of its time there.
    @Test func aKeptStatementIsNotCompiledAgainForNewValues() async throws {
        try await Self.withFile { path in
            let db = try Self.open(path)
            defer { db.close() }
            try await db.raw("CREATE TABLE s (id TEXT PRIMARY KEY, profile_id TEXT, type_id TEXT)").run()
            try await db.raw("CREATE TABLE t (id TEXT PRIMARY KEY, name TEXT)").run()
            try await db.raw("INSERT INTO t VALUES ('t1', 'Member')").run()
            try await db.raw("INSERT INTO s VALUES ('s1', 'p1', 't1'), ('s2', 'p2', NULL)").run()
            for profile in ["p1", "p2", "p1", "p3", "p2"] {
                let rows = try await db.raw(
                    "SELECT s.id, t.name FROM s LEFT JOIN t ON s.type_id = t.id WHERE s.profile_id = \(bind: profile)"
                )
                .all()
                #expect(rows.count == (profile == "p3" ? 0 : 1))
            }
            #expect(db.recompilations(of: "SELECT s.id, t.name FROM s LEFT JOIN t ON s.type_id = t.id WHERE s.profile_id = ?1") == 0)
            // A large value is let go once its statement has run, and the statement still runs with the next.
            let large = String(repeating: "x", count: 20_000)
            for profile in [large, "p1"] {
                _ = try await db.raw("SELECT s.id, t.name FROM s LEFT JOIN t ON s.type_id = t.id WHERE s.profile_id = \(bind: profile)")
                    .all()
            }
            #expect(try await db.raw("SELECT s.id FROM s WHERE s.profile_id = \(bind: large)").all().isEmpty)
        }
    }

    /// A kept statement keeps its columns' names, until a schema change has SQLite compile it again with others.
    @Test func aKeptStatementsColumnsFollowTheSchema() async throws {
        try await Self.withFile { path in
            let db = try Self.open(path)
            defer { db.close() }
            try await db.raw("CREATE TABLE t (a INTEGER, b TEXT)").run()
            try await db.raw("INSERT INTO t VALUES (1, 'one')").run()
            let first = try #require(try await db.raw("SELECT * FROM t").first())
            #expect(first.allColumns == ["a", "b"])
            #expect(try #require(try await db.raw("SELECT * FROM t").first()).allColumns == ["a", "b"])
            try await db.raw("ALTER TABLE t RENAME COLUMN b TO name").run()
            try await db.raw("ALTER TABLE t ADD COLUMN c REAL").run()
            let after = try #require(try await db.raw("SELECT * FROM t").first())
            #expect(after.allColumns == ["a", "name", "c"])
            #expect(try after.decode(column: "name", as: String.self) == "one")
            #expect(try after.decodeNil(column: "c"))
            #expect(!after.contains(column: "b"))
        }
    }

    @Test func aKeptStatementTakesNewValuesEachTimeAndManyStatementsStillRun() async throws {
        try await Self.withFile { path in
            let db = try Self.open(path)
            defer { db.close() }
            try await db.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)").run()
            for id in 1...50 {
                try await db.insert(into: "t").columns("id", "v").values(SQLBind(id), SQLBind("v\(id)")).run()
            }
            for id in [7, 3, 50] {
                let row = try await db.select().column("v").from("t").where("id", .equal, SQLBind(id)).first()
                #expect(try row?.decode(column: "v", as: String.self) == "v\(id)")
            }
            // More distinct statements than are kept: the kept ones are let go and every statement still answers.
            for limit in 1...250 {
                let rows = try await db.select().column("id").from("t").orderBy("id").limit(limit).all()
                #expect(rows.count == min(limit, 50))
            }
            // A failed statement (a constraint) leaves the kept one ready for the next values.
            await #expect(throws: SQLiteFailure.self) {
                try await db.insert(into: "t").columns("id", "v").values(SQLBind(1), SQLBind("again")).run()
            }
            try await db.insert(into: "t").columns("id", "v").values(SQLBind(51), SQLBind("v51")).run()
            #expect(try await db.select().column("id").from("t").all().count == 51)
        }
    }

    /// Two connections to one WAL database with a table `t`, the second holding the write lock (`BEGIN IMMEDIATE`).
    static func withTheLockHeldByAnother(
        busyTimeout: Duration, _ body: (InlineSQLiteConnection, InlineSQLiteConnection) async throws -> Void
    )
        async throws
    {
        try await withFile { path in
            let db = try open(path, busyTimeout: busyTimeout)
            let other = try open(path)
            defer {
                db.close()
                other.close()
            }
            try await db.raw("PRAGMA journal_mode = WAL").run()
            try await db.raw("CREATE TABLE t (id INTEGER PRIMARY KEY)").run()
            try await other.raw("BEGIN IMMEDIATE").run()
            try await body(db, other)
        }
    }

    @Test func aStatementWaitsWithoutBlockingWhileAnotherConnectionWrites() async throws {
        try await Self.withTheLockHeldByAnother(busyTimeout: .seconds(5)) { db, other in
            try await other.raw("INSERT INTO t (id) VALUES (1)").run()
            let started = ContinuousClock.now
            let write = Task { try await db.raw("INSERT INTO t (id) VALUES (2)").run() }
            try await Task.sleep(for: .milliseconds(300))
            try await other.raw("COMMIT").run()
            try await write.value
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(try await db.select().column("id").from("t").all().count == 2)
        }
    }

    @Test func aDatabaseHeldBeyondTheBusyTimeoutIsAnOutage() async throws {
        try await Self.withTheLockHeldByAnother(busyTimeout: .milliseconds(100)) { db, other in
            await #expect {
                try await db.raw("INSERT INTO t (id) VALUES (1)").run()
            } throws: { error in
                DatabaseOutage(error) == .busy
            }
            try await other.raw("ROLLBACK").run()
            try await db.raw("INSERT INTO t (id) VALUES (1)").run()
        }
    }

    /// A quick reader sees each write once it is committed, keeps reading while the writer holds its lock, and
    /// writes nothing.
    @Test func aReadOnlyConnectionReadsCommittedWritesAndRefusesToWrite() async throws {
        try await Self.withFile { path in
            let writer = try Self.open(path)
            try await writer.raw("PRAGMA journal_mode = WAL").run()
            try await writer.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)").run()
            let reader = try InlineSQLiteConnection(
                path: path, readOnly: true, logger: Logger(label: "test"), eventLoop: MultiThreadedEventLoopGroup.singleton.any())
            defer {
                reader.close()
                writer.close()
            }
            func values() async throws -> [String] {
                try await reader.select().column("v").from("t").orderBy("id").all().map { try $0.decode(column: "v", as: String.self) }
            }
            try await writer.insert(into: "t").columns("id", "v").values(SQLBind(1), SQLBind("one")).run()
            #expect(try await values() == ["one"])
            try await writer.raw("BEGIN IMMEDIATE").run()
            try await writer.insert(into: "t").columns("id", "v").values(SQLBind(2), SQLBind("two")).run()
            #expect(try await values() == ["one"], "not before the commit, and without waiting for it")
            try await writer.raw("COMMIT").run()
            #expect(try await values() == ["one", "two"])
            await #expect {
                try await reader.insert(into: "t").columns("id", "v").values(SQLBind(3), SQLBind("three")).run()
            } throws: { error in
                DatabaseOutage(error) == .readOnly
            }
            #expect(try await values() == ["one", "two"])
        }
    }

    @Test func aDatabaseThatCannotBeOpenedSaysWhy() throws {
        #expect {
            try Self.open("/proc/no-such-folder/test.sqlite")
        } throws: { error in
            DatabaseOutage(error) == .diskError && "\(error)".contains("unable to open")
        }
    }

    @Test func theLogIsCopiedIntoTheDatabaseFileInTheBackground() async throws {
        try await Self.withFile { path in
            let db = try InlineSQLiteConnection(
                path: path, checkpointPages: 10, logger: Logger(label: "test"), eventLoop: MultiThreadedEventLoopGroup.singleton.any())
            defer { db.close() }
            try await db.raw("PRAGMA journal_mode = WAL").run()
            try await db.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)").run()
            // 40 rows of 8 KB: about 80 pages, all in the log until a checkpoint copies them.
            for id in 1...40 {
                try await db.insert(into: "t").columns("id", "v").values(SQLBind(id), SQLBind(Data(repeating: UInt8(id), count: 8192)))
                    .run()
            }
            // SQLite's own checkpoint is off: only the background one can have grown the file.
            db.finishCheckpoints()
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            #expect(size >= 40 * 8192)
            // The log was copied whole, so the next write starts it again from its beginning.
            try await db.insert(into: "t").columns("id", "v").values(SQLBind(41), SQLBind(Data([1]))).run()
            let log = try #require(try await db.raw("PRAGMA wal_checkpoint(PASSIVE)").first())
            #expect(try log.decode(column: "log", as: Int.self) < 10)
            #expect(try await db.select().column("id").from("t").all().count == 41)
        }
    }
}
