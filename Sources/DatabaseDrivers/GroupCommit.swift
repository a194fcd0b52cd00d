import SQLKit
import Synchronization

/// A database whose transactions can share a commit with other writes (`GroupCommit`): SQLite's connections, and
/// what wraps them.
public protocol BatchedTransactions: SQLDatabase {
    /// False when `inBatch` cannot be used (PostgreSQL under the query meter).
    var batchesTransactions: Bool { get }
    /// Runs `body` on the writer as one unit that lands whole or not at all, answering once it is committed.
    func inBatch<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R
}

/// The writer's writes (a recorded draw, a poem save, a transaction), committed several at a time.
///
/// A write's own statement takes microseconds; its commit (appending the pages to the write-ahead log, and the
/// lock SQLite takes for it) cost about as much again. So a write joins the open transaction (beginning one when
/// none is open; a transaction joins it as a savepoint) and waits for its commit, which runs as a task of its own
/// once the requests already waiting to run have had their turn: under load, the writes that arrived together
/// share one commit. No write is answered
/// before its commit, so an acknowledged write is as durable as one committed alone; a crash before the commit
/// loses only writes nobody was told about.
///
/// Every method but `committed` is called in the writer's turn (`SQLiteConnections.mutex`).
final class GroupCommit: Sendable {
    private let open = Mutex<Batch?>(nil)

    /// Runs `write` in the open batch, beginning one (and asking `scheduleCommit` to commit it later) when none is
    /// open. A write that fails commits the batch at once: SQLite has undone that statement, and some failures
    /// (a full disk) undo the whole transaction, which the others must hear about now.
    func run(
        on writer: any SQLDatabase, scheduleCommit: () -> Void, _ write: () async throws -> Void
    ) async throws -> Batch {
        let batch: Batch
        if let current = open.withLock({ $0 }) {
            batch = current
        } else {
            try await writer.raw("BEGIN IMMEDIATE").run()
            batch = Batch()
            open.withLock { $0 = batch }
            scheduleCommit()
        }
        do {
            try await write()
        } catch {
            await commit(on: writer, cause: error)
            throw error
        }
        return batch
    }

    /// Commits the open batch, if any, and tells its writes. Before a transaction of its own or a backup takes the
    /// writer, and when the batch's scheduled commit comes.
    func commit(on writer: any SQLDatabase, cause: (any Error)? = nil) async {
        guard
            let batch = open.withLock({ current in
                defer { current = nil }
                return current
            })
        else { return }
        do {
            try await writer.raw("COMMIT").run()
            batch.finish(.success(()))
        } catch {
            try? await writer.raw("ROLLBACK").run()
            batch.finish(.failure(cause ?? error))
        }
    }

    /// The writes of one transaction, waiting for its commit.
    final class Batch: Sendable {
        private struct State {
            var outcome: Result<Void, any Error>?
            var waiters: [CheckedContinuation<Void, any Error>] = []
        }

        private let state = Mutex(State())

        /// Returns once the batch is committed; throws when it could not be.
        func committed() async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.outcome == nil { state.waiters.append(continuation) }
                    return state.outcome
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        }

        fileprivate func finish(_ outcome: Result<Void, any Error>) {
            let waiters = state.withLock { state in
                state.outcome = outcome
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(with: outcome) }
        }
    }
}
