import SQLKit

/// One step of the schema; once landed, a migration is never edited: a change is a new migration.
///
/// Versions from 1000 on are one sequence across every app: a new migration takes the next number after the
/// highest, so a fresh database and an upgraded one apply them in the same order. The versions below 1000 were
/// numbered by app (1xx accounts, 2xx strategies, …) and landed in another order than their numbers; none depends
/// on another's, which `MigratorTests` checks by applying them in the order they landed.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let apply: @Sendable (any SQLDatabase) async throws -> Void

    public init(version: Int, name: String, apply: @escaping @Sendable (any SQLDatabase) async throws -> Void) {
        self.version = version
        self.name = name
        self.apply = apply
    }
}

public enum Migrations {
    /// Trove's own migrations (accounts, sessions, idempotency keys); each app's are listed by the app
    /// (`TroveApps.migrations` in WebApp has them all, in order).
    public static let core = AccountMigrations.all
}
