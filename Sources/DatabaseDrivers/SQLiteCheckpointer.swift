import Dispatch
import Logging
import Synchronization
import VaporCSQLite

/// Copies the writer's write-ahead log back into the database file, on a thread of its own.
///
/// SQLite checkpoints by itself in the connection whose commit takes the log past 1,000 pages. The writer's
/// statements run in the calling task, on an event loop (`InlineSQLiteConnection`), so that commit copied up to 4 MB and
/// synced the file while every request of the loop waited: a poem save's p99 was 3.2 times its p50. The writer's
/// WAL hook asks for a checkpoint here instead, at the same size. It is PASSIVE, as SQLite's own: it copies what no
/// reader still needs and never waits for, or holds up, the writer or a reader.
final class SQLiteCheckpointer: Sendable {
    /// The log's size, in pages, that asks for a checkpoint (SQLite's own default).
    let pages: Int32
    private let path: String
    private let logger: Logger
    private let queue = DispatchQueue(label: "trove.sqlite.checkpoint", qos: .utility)
    private let requested = Atomic<Bool>(false)
    /// Its own connection, opened at the first checkpoint; only touched on `queue`.
    private let connection = Mutex<OpaquePointer?>(nil)

    init(path: String, pages: Int32, logger: Logger) {
        self.path = path
        self.pages = pages
        self.logger = logger
    }

    /// Returns once the checkpoints asked for so far have run.
    func finish() {
        queue.sync {}
    }

    /// Asks for a checkpoint; one already asked for and not yet started covers this one.
    func request() {
        guard !requested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async {
            // Cleared first, so a commit during this checkpoint asks for the next one.
            self.requested.store(false, ordering: .releasing)
            self.checkpoint()
        }
    }

    /// Waits for a checkpoint under way, then closes the connection.
    func close() {
        queue.sync {
            connection.withLock { handle in
                sqlite_nio_sqlite3_close_v2(handle)
                handle = nil
            }
        }
    }

    private func checkpoint() {
        connection.withLock { handle in
            if handle == nil {
                var opened: OpaquePointer?
                let code = sqlite_nio_sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
                guard code == SQLITE_OK, let opened else {
                    sqlite_nio_sqlite3_close_v2(opened)
                    logger.warning("Could not open the database for a checkpoint: SQLite error \(code)")
                    return
                }
                // A connection finds the database in WAL mode at its first read; until then it cannot checkpoint.
                sqlite_nio_sqlite3_exec(opened, "PRAGMA schema_version", nil, nil, nil)
                handle = opened
            }
            let code = sqlite_nio_sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            // Busy: another process (an import, a backup) is checkpointing; the next commit asks again.
            if code != SQLITE_OK && code & 0xFF != SQLITE_BUSY {
                logger.warning("A checkpoint failed: SQLite error \(code)")
            }
        }
    }

    /// Registers the hook on the writer's connection; SQLite calls it after each commit with the log's size.
    /// This replaces SQLite's own automatic checkpoint. The checkpointer must outlive the connection.
    func watch(_ writer: OpaquePointer) {
        sqlite_nio_sqlite3_wal_hook(
            writer,
            { context, _, _, pages in
                let checkpointer = Unmanaged<SQLiteCheckpointer>.fromOpaque(context!).takeUnretainedValue()
                if pages >= checkpointer.pages { checkpointer.request() }
                return SQLITE_OK
            },
            Unmanaged.passUnretained(self).toOpaque()
        )
    }
}
