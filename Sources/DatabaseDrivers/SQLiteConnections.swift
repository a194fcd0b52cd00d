import NIOCore
import SQLKit
import Synchronization

/// The server's SQLite connections: one writer, whose statements are taken in turn, and a few read-only
/// readers that SELECTs share.
///
/// `withSession` holds the writer's turn for its whole closure, so a transaction's statements never
/// interleave with another request's; inside it the closure talks to the writer directly. A read `PreparedQuery`
/// outside a session goes to the next quick reader (`InlineSQLiteConnection`, run in the calling task), any other
/// SELECT to the next of SQLiteNIO's readers; neither waits for anybody: in WAL mode a reader sees every committed write and
/// is never blocked by the writer. (Readers on the writer's own connection would be worse than slow: an
/// implicit transaction commits only when the connection's last statement ends, so an answered write could
/// still be uncommitted while another request's read was running.)
struct SQLiteConnections: ForwardingSQLDatabase {
    let base: any SQLDatabase
    let readers: [any SQLDatabase]
    /// For a `PreparedQuery`'s read: short, by key, run in the calling task with its statement kept.
    let quickReaders: [any SQLDatabase]
    let mutex = AsyncMutex()
    private let turn = ReaderTurn()

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
            try await mutex.withLock { try await base.execute(sql: query, onRow) }
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await mutex.withLock { UncheckedBox(try await closure(base)) }.value
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
