import NIOCore
import SQLKit
import Synchronization

/// The server's SQLite connections: one writer, whose statements are taken in turn, and a few read-only
/// readers that SELECTs share.
///
/// A write of one statement joins the open transaction and returns once it is committed (`GroupCommit`).
/// `withSession` commits that transaction first, then holds the writer's turn for its whole closure, so its
/// statements never interleave with another request's; inside it the closure talks to the writer directly. A read `PreparedQuery`
/// outside a session goes to the next quick reader (`InlineSQLiteConnection`, run in the calling task), any other
/// SELECT to the next of SQLiteNIO's readers; neither waits for anybody: in WAL mode a reader sees every committed write and
/// is never blocked by the writer. (Readers on the writer's own connection would be worse than slow: an
/// implicit transaction commits only when the connection's last statement ends, so an answered write could
/// still be uncommitted while another request's read was running.)
struct SQLiteConnections: ForwardingSQLDatabase, BatchedTransactions {
    let base: any SQLDatabase
    let readers: [any SQLDatabase]
    /// For a `PreparedQuery`'s read: short, by key, run in the calling task with its statement kept.
    let quickReaders: [any SQLDatabase]
    let mutex = AsyncMutex()
    private let turn = ReaderTurn()
    private let group = GroupCommit()

    init(base: any SQLDatabase, readers: [any SQLDatabase] = [], quickReaders: [any SQLDatabase] = []) {
        self.base = base
        self.readers = readers
        self.quickReaders = quickReaders
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        if !quickReaders.isEmpty, (query as? PreparedStatement)?.isRead == true {
            try await quickReaders[turn.next(of: quickReaders.count)].execute(sql: query, onRow)
        } else if !readers.isEmpty, query is SQLSelect || (query as? PreparedStatement)?.isRead == true {
            try await readers[turn.next(of: readers.count)].execute(sql: query, onRow)
        } else {
            let batch = try await mutex.withLock {
                try await group.run(on: base, scheduleCommit: scheduleCommit) { try await base.execute(sql: query, onRow) }
            }
            try await batch.committed()
        }
    }

    var batchesTransactions: Bool { true }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await mutex.withLock {
            await group.commit(on: base)
            return UncheckedBox(try await closure(base))
        }.value
    }

    /// Runs `body` as a savepoint in the open batch: its statements land together or not at all, and it returns once
    /// the batch is committed. (`transaction`'s way on SQLite; a transaction of its own would first have to commit
    /// the batch.)
    func inBatch<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let (batch, result) = try await mutex.withLock {
            var result: R?
            let batch = try await group.run(on: base, scheduleCommit: scheduleCommit) {
                try await base.raw("SAVEPOINT trove_write").run()
                do {
                    result = try await body(base)
                    try await base.raw("RELEASE trove_write").run()
                } catch {
                    try? await base.raw("ROLLBACK TO trove_write").run()
                    try? await base.raw("RELEASE trove_write").run()
                    throw error
                }
            }
            return (batch, UncheckedBox(result!))
        }
        try await batch.committed()
        return result.value
    }

    /// The open batch's commit, once the tasks already waiting to run (other requests, some with writes to
    /// add) have run.
    private func scheduleCommit() {
        let connections = self
        Task { try await connections.mutex.withLock { await connections.group.commit(on: connections.base) } }
    }
}

/// Hands the readers out in turn.
private final class ReaderTurn: Sendable {
    private let counter = Atomic<Int>(0)

    func next(of count: Int) -> Int {
        counter.wrappingAdd(1, ordering: .relaxed).oldValue % count
    }
}

/// Lets a non-Sendable result cross the lock; it never leaves the calling task.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
