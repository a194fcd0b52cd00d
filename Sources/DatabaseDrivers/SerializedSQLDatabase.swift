import Logging
import NIOCore
import SQLKit

/// One SQLite connection shared by the whole server, with statements taken in turn.
///
/// `withSession` holds the turn for its whole closure, so a transaction's statements never interleave with
/// another request's; inside it the closure talks to the connection directly.
struct SerializedSQLDatabase: SQLDatabase {
    let base: any SQLDatabase
    let mutex = AsyncMutex()

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        promise.completeWithTask { try await self.execute(sql: query, onRow) }
        return promise.futureResult
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        try await mutex.withLock { try await base.execute(sql: query, onRow) }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await mutex.withLock { UncheckedBox(try await closure(base)) }.value
    }
}

/// Lets a non-Sendable result cross the lock; it never leaves the calling task.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
