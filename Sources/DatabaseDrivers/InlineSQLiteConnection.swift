import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization
import VaporCSQLite

/// A SQLite connection whose statements run in the task that asks for them, each prepared once and kept: the
/// writer, and the quick readers that answer `PreparedQuery`'s reads.
///
/// Every write waits for the writer's turn (`SQLiteConnections`). Through SQLiteNIO each statement of a turn went to
/// its thread pool and back, and each of those hops waited behind every other request for the core: under load the
/// turn grew with the queue, and the writes were limited by it while the CPU was partly idle (docs/BENCHMARKS.md). A
/// write on pages in memory takes microseconds, so it runs here, at once. So does a read by key (a poem, a reader's
/// place, a few cities' names): through the pool, its two hops and preparing its statement anew cost more than the
/// read (a poem read 20% faster here, a city search 35%). Longer reads (a list, an export, the catalog's 235,000
/// cities) go to readers that run their statements on NIO's thread pool (`threadPool`), several at once, so that
/// none holds up the requests of an event loop; their statements are kept too.
/// What is waited for is waited for without blocking: when another process holds the database (a `trove import`,
/// a backup), the statement is tried again after a short sleep until the busy timeout.
///
/// The same SQLite as SQLiteNIO's (its `VaporCSQLite`), not the system's: two SQLite libraries in one process would
/// each release the other's POSIX locks on the file.
public final class InlineSQLiteConnection: SQLDatabase, Sendable {
    public let logger: Logger
    public let eventLoop: any EventLoop
    public var dialect: any SQLDialect { SQLiteDialect() }
    public var queryLogLevel: Logger.Level? { .trace }
    private let connection: Mutex<Connection>
    private let busyTimeout: Duration
    /// The writer's; a reader has none.
    private let checkpointer: SQLiteCheckpointer?
    /// Where a reader for longer reads runs its statements; nil for the calling task.
    private let threadPool: NIOThreadPool?

    /// The open handle and its kept statements, only touched under the lock.
    private final class Connection {
        var handle: OpaquePointer?
        var statements: [String: KeptStatement] = [:]

        init(handle: OpaquePointer) {
            self.handle = handle
        }
    }

    /// A prepared statement, and the names of its columns once a row was read: making those (a string per column and
    /// a dictionary) for every run was about 1.6% of a poem read.
    private final class KeptStatement {
        let handle: OpaquePointer
        private var columns: SQLiteResultRow.Columns?
        /// How many times SQLite had compiled it again when `columns` were read: a schema change may change them.
        private var columnsCompilation: Int32 = 0

        init(handle: OpaquePointer) {
            self.handle = handle
        }

        var compilations: Int32 { sqlite_nio_sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0) }

        /// The columns of the row just stepped to.
        func rowColumns() -> SQLiteResultRow.Columns {
            let compilation = compilations
            if let columns, columnsCompilation == compilation { return columns }
            let names = SQLiteResultRow.Columns(handle)
            columns = names
            columnsCompilation = compilation
            return names
        }
    }

    /// Opens (creating if needed) the database file at `path`. Its log is checkpointed in the background once it
    /// holds `checkpointPages` pages (`SQLiteCheckpointer`).
    /// `readOnly` opens a reader instead: for short reads (`PreparedQuery`'s), which then run in the calling task too,
    /// or, given a `threadPool`, for longer ones, run on its threads.
    public init(
        path: String, readOnly: Bool = false, threadPool: NIOThreadPool? = nil, busyTimeout: Duration = .seconds(5),
        checkpointPages: Int32 = 1000, logger: Logger, eventLoop: any EventLoop
    ) throws {
        var handle: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE
        let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite_nio_sqlite3_close_v2(handle)
            throw SQLiteFailure(code: code, message: message)
        }
        // SQLite's own busy handler would sleep in this thread; a busy statement comes back here instead.
        sqlite_nio_sqlite3_busy_timeout(handle, 0)
        checkpointer = readOnly ? nil : SQLiteCheckpointer(path: path, pages: checkpointPages, logger: logger)
        checkpointer?.watch(handle)
        connection = Mutex(Connection(handle: handle))
        self.threadPool = threadPool
        self.busyTimeout = busyTimeout
        self.logger = logger
        self.eventLoop = eventLoop
    }

    public func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, binds) = serialize(query)
        if logger.logLevel <= .trace { logger.trace("\(sql) \(binds)") }
        let values = try binds.map { try Self.encoder.encode($0) }
        let deadline = ContinuousClock.now + busyTimeout
        var pause = Duration.milliseconds(1)
        while true {
            if try await run(sql, values, onRow) { return }
            guard ContinuousClock.now < deadline else {
                throw SQLiteFailure(code: SQLITE_BUSY, message: "database is locked (by another process, for over \(busyTimeout))")
            }
            // As SQLite's own busy handler does: short pauses first, longer ones while the other holds on.
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    public func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        promise.completeWithTask { try await self.execute(sql: query, onRow) }
        return promise.futureResult
    }

    /// Runs the statement here, or on the thread pool; false when another process holds the database.
    private func run(_ sql: String, _ values: [SQLiteData], _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws -> Bool {
        guard let threadPool else { return try connection.withLock { try Self.run(sql, values, on: $0, onRow) } }
        return try await threadPool.runIfActive { try self.connection.withLock { try Self.run(sql, values, on: $0, onRow) } }
    }

    /// Closes the connection; it answers no statement after.
    public func close() {
        connection.withLock { connection in
            for statement in connection.statements.values { sqlite_nio_sqlite3_finalize(statement.handle) }
            connection.statements = [:]
            sqlite_nio_sqlite3_close_v2(connection.handle)
            connection.handle = nil
        }
        checkpointer?.close()
    }

    /// How many times SQLite compiled the kept statement for `sql` again since it was kept; nil when none is kept
    /// (for tests).
    public func recompilations(of sql: String) -> Int32? {
        connection.withLock { $0.statements[sql]?.compilations }
    }

    /// Returns once the background checkpoints asked for so far have run (for tests).
    public func finishCheckpoints() { checkpointer?.finish() }

    deinit {
        close()
    }

    /// Made once: each holds a JSONEncoder or JSONDecoder (for values it cannot convert directly), and making one per
    /// statement or per column was work on every write.
    private static let encoder = SQLiteDataEncoder()
    fileprivate static let decoder = SQLiteDataDecoder()

    /// Kept statements beyond this many are all let go (a statement's text is mostly fixed; a list's length can
    /// vary it).
    private static let keptStatements = 200

    /// Runs one statement to its end, handing each row over as it is read (a backup streams a whole table); false
    /// when another process holds the database, before any row.
    private static func run(
        _ sql: String, _ values: [SQLiteData], on connection: Connection, _ onRow: (any SQLRow) -> Void
    ) throws -> Bool {
        guard let handle = connection.handle else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the connection is closed") }
        let kept = try prepared(sql, on: connection, handle: handle)
        let statement = kept.handle
        defer {
            sqlite_nio_sqlite3_reset(statement)
            // Every run binds all of a statement's values, so the last ones are left in place: clearing them marks a
            // statement whose plan looked at a value (a LEFT JOIN's `= ?`, by SQLite's heuristics) as expired, and it
            // was compiled again on every run. Large ones are let go, so that a kept statement holds no upload.
            if values.contains(where: \.isLarge) { sqlite_nio_sqlite3_clear_bindings(statement) }
        }
        for (offset, value) in values.enumerated() {
            let code = bind(value, at: Int32(offset + 1), to: statement)
            guard code == SQLITE_OK else { throw SQLiteFailure(code: code, handle: handle) }
        }
        var columns: SQLiteResultRow.Columns?
        while true {
            let code = sqlite_nio_sqlite3_step(statement)
            switch code {
            case SQLITE_ROW:
                let names = columns ?? kept.rowColumns()
                columns = names
                onRow(SQLiteResultRow(columns: names, values: (0..<Int32(names.names.count)).map { value(at: $0, of: statement) }))
            case SQLITE_DONE:
                return true
            case let code where code & 0xFF == SQLITE_BUSY && columns == nil:
                return false
            default:
                throw SQLiteFailure(code: code, handle: handle)
            }
        }
    }

    private static func prepared(_ sql: String, on connection: Connection, handle: OpaquePointer) throws -> KeptStatement {
        if let kept = connection.statements[sql] { return kept }
        if connection.statements.count >= keptStatements {
            for statement in connection.statements.values { sqlite_nio_sqlite3_finalize(statement.handle) }
            connection.statements = [:]
        }
        var statement: OpaquePointer?
        let code = sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK else { throw SQLiteFailure(code: code, handle: handle) }
        // An empty text (only a comment) compiles to no statement.
        guard let statement else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "no statement in \(sql.prefix(80))") }
        let kept = KeptStatement(handle: statement)
        connection.statements[sql] = kept
        return kept
    }

    private static func bind(_ value: SQLiteData, at index: Int32, to statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let number): sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
        case .float(let number): sqlite_nio_sqlite3_bind_double(statement, index, number)
        case .text(let text):
            sqlite_nio_sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
        case .blob(let buffer):
            buffer.withUnsafeReadableBytes {
                sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), transient)
            }
        case .null: sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private static func value(at column: Int32, of statement: OpaquePointer) -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT: return .float(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            guard let text = sqlite_nio_sqlite3_column_text(statement, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            if let bytes = sqlite_nio_sqlite3_column_blob(statement, column) {
                buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: count))
            }
            return .blob(buffer)
        default: return .null
        }
    }

    /// SQLite copies a bound text or blob before the call returns (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

extension SQLiteData {
    /// A text or blob worth letting go of once its statement has run.
    fileprivate var isLarge: Bool {
        switch self {
        case .text(let text): text.utf8.count > 16_384
        case .blob(let buffer): buffer.readableBytes > 16_384
        default: false
        }
    }
}

/// An error SQLite reported, with its extended result code.
public struct SQLiteFailure: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    init(code: Int32, handle: OpaquePointer) {
        self.init(code: code, message: String(cString: sqlite_nio_sqlite3_errmsg(handle)))
    }

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_FULL`, …) without its extension.
    public var primaryCode: Int32 { code & 0xFF }

    public var description: String { "SQLite error \(code): \(message)" }
}

/// A row the writer read, for SQLKit.
struct SQLiteResultRow: SQLRow, Sendable {
    /// The names of a statement's columns, shared by its rows.
    final class Columns: Sendable {
        let names: [String]
        let offsets: [String: Int]

        init(_ statement: OpaquePointer) {
            names = (0..<sqlite_nio_sqlite3_column_count(statement)).map { String(cString: sqlite_nio_sqlite3_column_name(statement, $0)) }
            offsets = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    let columns: Columns
    let values: [SQLiteData]

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.offsets[column] != nil }

    func decodeNil(column: String) throws -> Bool {
        guard let offset = columns.offsets[column] else { return true }
        return values[offset] == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let offset = columns.offsets[column] else { throw SQLiteFailure(code: SQLITE_ERROR, message: "no column '\(column)'") }
        // The usual columns directly: SQLiteDataDecoder looks up, for every value, whether the type converts itself
        // (a dynamic cast to a protocol, through the runtime's conformance cache).
        switch values[offset] {
        case .text(let text) where D.self == String.self: return text as! D
        case .integer(let number) where D.self == Int.self: return number as! D
        case .integer(let number) where D.self == Int64.self: return Int64(number) as! D
        case .float(let number) where D.self == Double.self: return number as! D
        default: return try InlineSQLiteConnection.decoder.decode(D.self, from: values[offset])
        }
    }
}
