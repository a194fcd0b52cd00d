import DatabaseDrivers
import Foundation
import SQLKit
import Zlib

/// Backs a database up into a `BackupArchive` while it keeps serving, and restores one into an empty
/// database of either kind: moving from SQLite to PostgreSQL is a backup, then a restore.
///
/// The backup reads every table in one read-only transaction, a consistent snapshot (SQLite's WAL and
/// PostgreSQL's REPEATABLE READ let writers carry on meanwhile). Tables go in the order they were created, so
/// a restore meets every referenced row before the rows that refer to it.
public struct DatabaseBackup: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    public struct Summary: Sendable, Equatable {
        public let tables: Int
        public let rows: Int
    }

    // MARK: Backup

    /// Tables whose rows are keys to an account (a session id, a known browser's token): a backup leaves them out,
    /// so a copy of it signs nobody in. After a restore, people sign in again.
    static let credentialTables: Set<String> = ["sessions", "known_devices"]

    public func backUp(to url: URL, now: Date = Date()) async throws -> Summary {
        let kind = database.kind
        return try await database.sql.withSession { db in
            try await db.raw(SQLQueryString(kind == .postgres ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")).run()
            do {
                let migrations = try await db.raw("SELECT version FROM schema_migrations ORDER BY version").all()
                    .map { try $0.decode(column: "version", as: Int.self) }
                let header = BackupArchive.Header(
                    format: BackupArchive.format, version: BackupArchive.version,
                    created_at: now.millisecondsSince1970, source: kind.rawValue, migrations: migrations)
                let writer = try BackupArchive.Writer(creating: url, header: header)
                let tables = try await Self.tables(on: db, kind: kind)
                for table in tables {
                    try writer.table(table)
                    guard !Self.credentialTables.contains(table.table) else { continue }
                    try await Self.eachRow(of: table, on: db) { try writer.row($0) }
                }
                try writer.finish()
                try await db.raw("COMMIT").run()
                return Summary(tables: tables.count, rows: writer.rows)
            } catch {
                try? await db.raw("ROLLBACK").run()
                try? FileManager.default.removeItem(at: url)
                throw error
            }
        }
    }

    // MARK: Restore

    /// Checks the whole archive first (nothing is written from a damaged one), then loads it in one
    /// transaction into this database, which must be migrated and empty.
    public func restore(from url: URL) async throws -> Summary {
        var tables = 0
        var rows = 0
        _ = try await BackupArchive.read(url) { line in
            if case .table = line { tables += 1 } else { rows += 1 }
        }
        let kind = database.kind
        let targetTables = Dictionary(uniqueKeysWithValues: try await Self.tables(on: database.sql, kind: kind).map { ($0.table, $0) })
        var problems: [String] = []
        _ = try await BackupArchive.read(url) { line in
            guard case .table(let table) = line else { return }
            guard let target = targetTables[table.table] else {
                problems.append("this database has no table \(table.table)")
                return
            }
            let missing = Set(table.columns).subtracting(target.columns)
            if !missing.isEmpty { problems.append("\(table.table) has no column \(missing.sorted().joined(separator: ", "))") }
        }
        guard problems.isEmpty else {
            throw BackupArchive.Failure(description: "the backup comes from a newer Trove: \(problems.prefix(3).joined(separator: "; "))")
        }
        for table in targetTables.keys.sorted() {
            if try await database.sql.select().column(SQLLiteral.numeric("1")).from(table).limit(1).first() != nil {
                throw BackupArchive.Failure(description: "the database is not empty (\(table) has rows): restore into a new database")
            }
        }
        // The archive is read again inside the transaction, each batch of rows sent as it fills.
        try await database.sql.transaction { db in
            var current: BackupArchive.Table?
            var batch: [[BackupArchive.Value]] = []
            _ = try await BackupArchive.read(url) { line in
                switch line {
                case .table(let table):
                    if let current, !batch.isEmpty { try await Self.insert(batch, into: current, on: db) }
                    current = table
                    batch = []
                case .row(let values):
                    batch.append(values)
                    if let current, batch.count >= Self.batchSize(current) {
                        try await Self.insert(batch, into: current, on: db)
                        batch = []
                    }
                }
            }
            if let current, !batch.isEmpty { try await Self.insert(batch, into: current, on: db) }
            if kind == .postgres {
                for table in targetTables.values
                where table.columns.contains("id") && table.kinds[table.columns.firstIndex(of: "id")!] == .integer {
                    try await db.raw(
                        """
                        SELECT setval(pg_get_serial_sequence(\(bind: table.table), 'id'), COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM \(ident: table.table)
                        """
                    ).run()
                }
            }
        }
        return Summary(tables: tables, rows: rows)
    }

    /// Rows per INSERT: PostgreSQL takes at most 65,535 bound values in one statement.
    static func batchSize(_ table: BackupArchive.Table) -> Int { max(1, 20_000 / max(1, table.columns.count)) }

    static func insert(_ rows: [[BackupArchive.Value]], into table: BackupArchive.Table, on db: any SQLDatabase) async throws {
        var insert = db.insert(into: table.table).columns(table.columns)
        for row in rows {
            guard row.count == table.columns.count else {
                throw BackupArchive.Failure(description: "a row of \(table.table) has the wrong number of values")
            }
            insert = insert.values(zip(row, table.kinds).map { value, kind in bind(value.asKind(kind)) })
        }
        try await insert.run()
    }

    static func bind(_ value: BackupArchive.Value) -> any SQLExpression {
        switch value {
        case .null: SQLLiteral.null
        case .integer(let value): SQLBind(value)
        case .real(let value): SQLBind(value)
        case .text(let value): SQLBind(value)
        case .boolean(let value): SQLBind(value)
        case .blob(let value): SQLBind(value)
        }
    }

    // MARK: Digest

    /// Each table's row count and a CRC-32 over its rows in a canonical order: two databases holding the same
    /// data give the same digest, whichever kind they are.
    public func digest() async throws -> [String: String] {
        let kind = database.kind
        var result: [String: String] = [:]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for table in try await Self.tables(on: database.sql, kind: kind) {
            var lines: [[UInt8]] = []
            try await Self.eachRow(of: table, on: database.sql) { lines.append(Array(try encoder.encode($0))) }
            lines.sort { $0.lexicographicallyPrecedes($1) }
            var crc: UInt32 = 0
            for line in lines { crc = Zlib.crc32(line + [0x0A], continuing: crc) }
            result[table.table] = "\(lines.count) rows, crc32 \(String(crc, radix: 16))"
        }
        return result
    }

    // MARK: The catalog

    /// Trove's tables in the order they were created, with their columns and what kind of value each holds.
    static func tables(on db: any SQLDatabase, kind: DatabaseKind) async throws -> [BackupArchive.Table] {
        let names: [String]
        switch kind {
        case .sqlite:
            names = try await db.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
                .all()
                .map { try $0.decode(column: "name", as: String.self) }
        case .postgres:
            names = try await db.raw(
                """
                SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY c.oid
                """
            ).all().map { try $0.decode(column: "name", as: String.self) }
        }
        var tables: [BackupArchive.Table] = []
        for name in names where name != "schema_migrations" {
            let columns: [(String, String)]
            switch kind {
            case .sqlite:
                columns = try await db.raw("SELECT name, type FROM pragma_table_info(\(bind: name)) ORDER BY cid").all()
                    .map { (try $0.decode(column: "name", as: String.self), try $0.decode(column: "type", as: String.self)) }
            case .postgres:
                columns = try await db.raw(
                    """
                    SELECT column_name::text AS name, data_type::text AS type FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name = \(bind: name) ORDER BY ordinal_position
                    """
                ).all().map { (try $0.decode(column: "name", as: String.self), try $0.decode(column: "type", as: String.self)) }
            }
            tables.append(BackupArchive.Table(table: name, columns: columns.map(\.0), kinds: columns.map { kindOf(declared: $0.1) }))
        }
        return tables
    }

    static func kindOf(declared type: String) -> BackupArchive.Kind {
        let type = type.lowercased()
        if type.contains("bool") { return .boolean }
        if type.contains("int") { return .integer }
        if type.contains("doub") || type.contains("real") || type.contains("float") || type.contains("numeric") { return .real }
        if type.contains("blob") || type.contains("bytea") { return .blob }
        return .text
    }

    /// Every row of `table` as values, streamed: a table of 235,000 cities is never held whole.
    static func eachRow(of table: BackupArchive.Table, on db: any SQLDatabase, _ body: @escaping ([BackupArchive.Value]) throws -> Void)
        async throws
    {
        let handler = RowHandler { row in try body(try values(of: row, table: table)) }
        try await db.select().columns(table.columns.map { SQLIdentifier($0) }).from(table.table).run { handler.handle($0) }
        if let failure = handler.failure { throw failure }
    }

    /// SQLKit hands rows to a Sendable closure, one after another: this carries the work and its first failure.
    final class RowHandler: @unchecked Sendable {
        let body: (any SQLRow) throws -> Void
        var failure: (any Error)?

        init(_ body: @escaping (any SQLRow) throws -> Void) {
            self.body = body
        }

        func handle(_ row: any SQLRow) {
            guard failure == nil else { return }
            do { try body(row) } catch { failure = error }
        }
    }

    static func values(of row: any SQLRow, table: BackupArchive.Table) throws -> [BackupArchive.Value] {
        try zip(table.columns, table.kinds).map { column, kind in
            if try row.decodeNil(column: column) { return .null }
            switch kind {
            case .text: return .text(try row.decode(column: column, as: String.self))
            case .integer: return .integer(try row.decode(column: column, as: Int64.self))
            case .real: return .real(try row.decode(column: column, as: Double.self))
            case .boolean: return .boolean(try row.decode(column: column, as: Bool.self))
            case .blob: return .blob(try row.decode(column: column, as: Data.self))
            }
        }
    }
}
