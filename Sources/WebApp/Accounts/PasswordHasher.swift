import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// bcrypt on a thread of its own, so a burst of sign-ins cannot stall database queries on the shared pool.
///
/// Work waits in line for that one thread; past `maximumWaiting` callers the hasher answers "busy" at once.
final class PasswordHasher: Sendable {
    private let pool: NIOThreadPool
    private let cost: UInt8
    private let waiting = Atomic<Int>(0)
    private let maximumWaiting: Int
    /// Checked when a username is unknown, so a wrong name takes as long as a wrong password.
    private let decoyHash: String

    init(cost: UInt8, maximumWaiting: Int = 64) {
        self.pool = NIOThreadPool(numberOfThreads: 1)
        self.pool.start()
        self.cost = cost
        self.maximumWaiting = maximumWaiting
        self.decoyHash = Bcrypt.hash("decoy password for unknown users", cost: cost)
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await run { Bcrypt.hash(password, cost: cost) }
    }

    /// Verifies against `hash`, or against a decoy when there is no account, so both take the same time.
    func verify(_ password: String, hash: String?) async throws -> Bool {
        let decoy = decoyHash
        return try await run {
            let matches = Bcrypt.verify(password, hash: hash ?? decoy)
            return hash != nil && matches
        }
    }

    private func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        let queued = waiting.add(1, ordering: .relaxed).newValue
        defer { waiting.subtract(1, ordering: .relaxed) }
        guard queued <= maximumWaiting else {
            throw APIError(.serviceUnavailable, code: "busy", message: "Too many sign-ins at once: try again in a moment.")
        }
        return try await pool.runIfActive(work)
    }
}
