import SQLKit

/// One step of the schema. Versions are numbered by app (1xx accounts, 2xx strategies, …);
/// once landed, a migration is never edited: a change is a new migration.
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
    /// Every migration of every app, in the order they apply.
    public static let all: [Migration] =
        (AccountMigrations.all + StrategyMigrations.all + PoetryMigrations.all + CityMigrations.all + YogaMigrations.all
        + StoryMigrations.all).sorted { $0.version < $1.version }
}
