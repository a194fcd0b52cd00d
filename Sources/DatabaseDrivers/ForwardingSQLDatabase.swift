import Logging
import NIOCore
import SQLKit

/// A database that hands its queries to another (`base`) after doing its own part: SQLite's writer and readers
/// (`SQLiteConnections`), the query meter (`MeteredDatabase`), a running transaction's connection. Each writes
/// its async `execute`; the rest is passed through here.
public protocol ForwardingSQLDatabase: SQLDatabase {
    var base: any SQLDatabase { get }
}

extension ForwardingSQLDatabase {
    public var logger: Logger { base.logger }
    public var eventLoop: any EventLoop { base.eventLoop }
    public var version: (any SQLDatabaseReportedVersion)? { base.version }
    public var dialect: any SQLDialect { base.dialect }
    public var queryLogLevel: Logger.Level? { base.queryLogLevel }

    /// SQLKit's future-returning form, through the wrapper's async `execute`.
    public func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        promise.completeWithTask { try await self.execute(sql: query, onRow) }
        return promise.futureResult
    }
}
