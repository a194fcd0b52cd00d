import Foundation
import Storage
import Synchronization

/// Sessions found in the last few seconds, so the dozen requests of one page do not each read the
/// session table. An entry lives `lifetime` seconds (never past its session's expiry); every sign-in,
/// sign-out and account deletion in this process empties the cache. Another instance sharing the
/// database (PostgreSQL) notices a session ended there within `lifetime` seconds.
final class SessionCache: Sendable {
    private struct Entry {
        let session: SessionRepository.Session
        let cachedAt: Date
    }

    private let entries = Mutex<[String: Entry]>([:])
    let lifetime: TimeInterval
    let capacity: Int

    init(lifetime: TimeInterval = 5, capacity: Int = 10_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    func session(id: String, now: Date) -> SessionRepository.Session? {
        entries.withLock { entries in
            guard let entry = entries[id] else { return nil }
            guard now.timeIntervalSince(entry.cachedAt) < lifetime, entry.session.expiresAt > now else {
                entries[id] = nil
                return nil
            }
            return entry.session
        }
    }

    func keep(_ session: SessionRepository.Session, now: Date) {
        entries.withLock { entries in
            // Full: start over rather than track ages (a full cache means many visitors in a few seconds).
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[session.id] = Entry(session: session, cachedAt: now)
        }
    }

    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
