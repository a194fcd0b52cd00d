import NIOCore
import SQLKit
import Synchronization

/// The server's SQLite connections: one writer, whose statements are taken in turn, and a few read-only
/// readers that SELECTs share.
///
/// A write of one statement joins the open transaction and returns once it is committed (`GroupCommit`).
/// `withSession` commits that transaction first, then holds the writer's turn for its whole closure, so its
/// statements never interleave with another request's; inside it the closure talks to the writer directly. A short
/// read `PreparedQuery` outside a session goes to the next quick reader (`InlineSQLiteConnection`, run in the calling
/// task), any other SELECT to a free one of the readers on NIO's thread pool (`FreeReaders`). Neither waits for the
/// writer: in WAL mode a reader sees every write committed before its query starts. (Readers on the writer's own
/// connection would be worse than slow: an implicit transaction commits only when the connection's last statement
/// ends, so an answered write could still be uncommitted while another request's read was running.)
struct SQLiteConnections: ForwardingSQLDatabase, BatchedTransactions {
    let base: any SQLDatabase
    let readers: [any SQLDatabase]
    /// For a `PreparedQuery`'s read: short, by key, run in the calling task with its statement kept.
    let quickReaders: [any SQLDatabase]
    /// One query at a time on each reader, on whichever is free. A statement still running on a connection holds
    /// that connection's read snapshot, and a second query started beside it reads the same snapshot: a write
    /// committed in between (the request's own, read back) would not be there. The soak found a student created
    /// and then not found.
    private let freeReaders: FreeReaders
    let mutex = AsyncMutex()
    private let turn = ReaderTurn()
    private let group = GroupCommit()

    init(base: any SQLDatabase, readers: [any SQLDatabase] = [], quickReaders: [any SQLDatabase] = []) {
        self.base = base
        self.readers = readers
        self.quickReaders = quickReaders
        self.freeReaders = FreeReaders(count: readers.count)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        if !quickReaders.isEmpty, let prepared = query as? PreparedStatement, prepared.isRead, prepared.isShort {
            try await quickReaders[turn.next(of: quickReaders.count)].execute(sql: query, onRow)
        } else if !readers.isEmpty, query is SQLSelect || (query as? PreparedStatement)?.isRead == true {
            let reader = await freeReaders.take()
            defer { freeReaders.give(back: reader) }
            try await readers[reader].execute(sql: query, onRow)
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

/// The readers not running a query: a query takes one (waiting, in order, when none is free) and gives it back.
private final class FreeReaders: Sendable {
    private struct State {
        var free: [Int]
        var waiters: [CheckedContinuation<Int, Never>] = []
    }

    private let state: Mutex<State>

    init(count: Int) { state = Mutex(State(free: Array(0..<count))) }

    func take() async -> Int {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            let reader = state.withLock { state -> Int? in
                if let reader = state.free.popLast() { return reader }
                state.waiters.append(continuation)
                return nil
            }
            if let reader { continuation.resume(returning: reader) }
        }
    }

    func give(back reader: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Int, Never>? in
            if state.waiters.isEmpty {
                state.free.append(reader)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: reader)
    }
}

/// Hands the quick readers out in turn.
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
