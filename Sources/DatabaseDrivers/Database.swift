import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLiteKit

/// An open database: SQLKit's `SQLDatabase` for the repositories, plus what is needed to close it.
public final class Database: Sendable {
    public let sql: any SQLDatabase
    public let kind: DatabaseKind
    private let close: @Sendable () async throws -> Void

    init(sql: any SQLDatabase, kind: DatabaseKind, close: @escaping @Sendable () async throws -> Void) {
        self.sql = TransactionJoiningDatabase(base: MeteredDatabase(base: sql, kind: kind))
        self.kind = kind
        self.close = close
    }

    /// Opens the database at `location`, checks it answers, and returns it ready for queries.
    public static func open(_ location: DatabaseLocation, logger: Logger) async throws(DatabaseConfigurationError) -> Database {
        switch location {
        case .sqlite(let path): try await openSQLite(path: path, logger: logger)
        case .postgres(let url): try await openPostgres(url: url, location: location, logger: logger)
        }
    }

    /// Closes the database. Runs to completion even when the calling task is cancelled (a server that failed
    /// to start cancels its services), since an unclosed connection is an error of its own.
    public func shutdown() async {
        let close = self.close
        await Task { try? await close() }.value
    }

    private static func openSQLite(path: String, logger: Logger) async throws(DatabaseConfigurationError) -> Database {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .unwritableFolder(folder)
        }
        guard FileManager.default.isWritableFile(atPath: folder) else { throw .unwritableFolder(folder) }
        let writer: InlineSQLiteConnection
        do {
            writer = try InlineSQLiteConnection(path: url.path, logger: logger, eventLoop: MultiThreadedEventLoopGroup.singleton.any())
        } catch {
            throw .cannotOpen(path, String(describing: error))
        }
        do {
            // Foreign keys are off by default in SQLite; WAL lets readers run beside the writer.
            for pragma in ["PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"] {
                try await writer.raw(SQLQueryString(pragma)).run()
            }
        } catch {
            writer.close()
            throw .cannotOpen(path, String(describing: error))
        }
        var readers: [InlineSQLiteConnection] = []
        var quickReaders: [InlineSQLiteConnection] = []
        do {
            // Read-only so that a statement sent to a reader by mistake fails instead of writing outside the
            // writer's turn.
            for _ in 0..<sqliteReaders {
                let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
                readers.append(
                    try InlineSQLiteConnection(path: url.path, readOnly: true, threadPool: .singleton, logger: logger, eventLoop: eventLoop)
                )
                quickReaders.append(try InlineSQLiteConnection(path: url.path, readOnly: true, logger: logger, eventLoop: eventLoop))
            }
        } catch {
            for reader in readers + quickReaders { reader.close() }
            writer.close()
            throw .cannotOpen(path, String(describing: error))
        }
        let opened = readers + quickReaders
        let database = SQLiteConnections(base: writer, readers: readers, quickReaders: quickReaders)
        return Database(sql: database, kind: .sqlite) {
            for reader in opened { reader.close() }
            writer.close()
        }
    }

    /// One reader per core: SQLite's reads run on NIO's thread pool, which has a thread per core.
    static let sqliteReaders = max(2, System.coreCount)

    private static func openPostgres(url: String, location: DatabaseLocation, logger: Logger) async throws(DatabaseConfigurationError)
        -> Database
    {
        let configuration: SQLPostgresConfiguration
        do {
            var parsed = try SQLPostgresConfiguration(url: url)
            parsed.coreConfiguration.options.connectTimeout = .seconds(5)
            configuration = parsed
        } catch {
            throw .malformedURL(location.redacted, "expected postgres://user:password@host:port/database")
        }
        // The pool would log every failed connection attempt on its own; the failure reaches the caller
        // (and so the request log, with its request id) anyway, so it only speaks up for critical trouble.
        var poolLogger = logger
        poolLogger.logLevel = .critical
        let pool = EventLoopGroupConnectionPool(
            source: PostgresConnectionSource(sqlConfiguration: configuration),
            maxConnectionsPerEventLoop: 4,
            requestTimeout: .seconds(10),
            logger: poolLogger,
            on: MultiThreadedEventLoopGroup.singleton
        )
        let sql = pool.database(logger: poolLogger).sql(queryLogLevel: .trace)
        do {
            try await sql.raw("SELECT 1").run()
        } catch {
            try? await pool.shutdownAsync()
            throw .unreachable(location.redacted, Self.describe(error))
        }
        let closer = PoolCloser(pool: pool)
        return Database(sql: sql, kind: .postgres) {
            try await closer.pool.shutdownAsync()
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if error.code == .connectionError { return "connection refused or host unreachable" }
            return "\(error.code)"
        }
        return String(describing: error)
    }
}

/// AsyncKit's pool guards its state with locks but is not marked Sendable; this lets the close closure hold it.
private struct PoolCloser: @unchecked Sendable {
    let pool: EventLoopGroupConnectionPool<PostgresConnectionSource>
}
