import DatabaseDrivers
import SQLKit

extension SQLDatabase {
    /// Runs `body` in one transaction on one connection: everything it writes lands, or nothing does.
    ///
    /// Called on the connection of a transaction already running (a repository used inside a larger transaction,
    /// as an account import uses them all), or in a task running in a `RequestTransaction`, `body` joins that
    /// transaction instead of starting another.
    public func transaction<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        if let running = self as? TransactionConnection { return try await body(running) }
        // A keyed API write's handler: its repositories join the transaction that claimed the key.
        if let joined = (self as? TransactionJoiningDatabase)?.joinedTransaction {
            return try await body(TransactionConnection(base: joined))
        }
        // SQLite's writer: a savepoint in the writes that share the next commit (`GroupCommit`).
        if let batched = self as? any BatchedTransactions, batched.batchesTransactions {
            return try await batched.inBatch { connection in try await body(TransactionConnection(base: connection)) }
        }
        return try await withSession { connection in
            // IMMEDIATE takes SQLite's write lock up front, so two writers wait instead of failing mid-way.
            let begin = connection.dialect.name == "sqlite" ? "BEGIN IMMEDIATE" : "BEGIN"
            try await connection.raw(SQLQueryString(begin)).run()
            do {
                let result = try await body(TransactionConnection(base: connection))
                try await connection.raw("COMMIT").run()
                return result
            } catch {
                try? await connection.raw("ROLLBACK").run()
                throw error
            }
        }
    }
}

/// The connection a transaction runs on, marked so that a transaction asked for on it joins the running one.
struct TransactionConnection: ForwardingSQLDatabase {
    let base: any SQLDatabase

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await base.execute(sql: query, onRow)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}
