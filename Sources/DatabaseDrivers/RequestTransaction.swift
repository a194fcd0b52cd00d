import Logging
import NIOCore
import SQLKit
import Synchronization

/// A transaction that every query of one task runs in, whichever repository asks: a keyed API write
/// (`IdempotencyRepository.once`) runs its handler inside the transaction that claimed its key, so the handler's
/// writes and the key's recorded answer commit together or not at all.
///
/// The repositories keep the database they were given (`Database.sql`); its outermost layer
/// (`TransactionJoiningDatabase`) sends a query to the task's transaction when there is one. Child tasks inherit it;
/// a task that outlives the transaction (a cache refresh started by the handler) falls back to the database.
public final class RequestTransaction: Sendable {
    @TaskLocal public static var current: RequestTransaction?

    private let connection: any SQLDatabase
    private let open = Atomic<Bool>(true)

    private init(connection: any SQLDatabase) {
        self.connection = connection
    }

    /// The transaction's connection while the transaction is running.
    public var openConnection: (any SQLDatabase)? { open.load(ordering: .acquiring) ? connection : nil }

    /// Runs `body` with every query of this task (and its child tasks) sent to `connection`, a connection in a
    /// running transaction.
    public static func run<R>(on connection: any SQLDatabase, _ body: () async throws -> R) async rethrows -> R {
        let transaction = RequestTransaction(connection: connection)
        defer { transaction.open.store(false, ordering: .releasing) }
        return try await $current.withValue(transaction) { try await body() }
    }
}

/// The database the repositories are given: its queries go to the task's `RequestTransaction` when there is one,
/// else on to `base`.
public struct TransactionJoiningDatabase: ForwardingSQLDatabase, BatchedTransactions {
    public let base: any SQLDatabase

    /// The running transaction this task's queries join, if any.
    public var joinedTransaction: (any SQLDatabase)? { RequestTransaction.current?.openConnection }

    public func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        if let joined = joinedTransaction {
            try await joined.execute(sql: query, onRow)
        } else {
            try await base.execute(sql: query, onRow)
        }
    }

    public func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        if let joined = joinedTransaction { return try await closure(joined) }
        return try await base.withSession(closure)
    }

    public var batchesTransactions: Bool {
        joinedTransaction == nil && (base as? any BatchedTransactions)?.batchesTransactions == true
    }

    public func inBatch<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        guard let batched = base as? any BatchedTransactions else { preconditionFailure("check batchesTransactions first") }
        return try await batched.inBatch(body)
    }
}
