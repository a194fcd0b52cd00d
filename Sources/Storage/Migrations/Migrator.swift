import Foundation
import SQLKit

/// Applies pending migrations and records each in `schema_migrations`.
public struct Migrator: Sendable {
    let database: any SQLDatabase
    let migrations: [Migration]

    public init(database: any SQLDatabase, migrations: [Migration]) {
        self.database = database
        self.migrations = migrations
    }

    /// Applies every migration not yet recorded, each in its own transaction, and returns those it applied.
    /// Instances starting together on one PostgreSQL take turns through an advisory lock; SQLite's single
    /// connection already serialises them.
    @discardableResult
    public func migrate(now: Date = Date()) async throws -> [Migration] {
        let migrations = self.migrations
        return try await database.withSession { db in
            let isPostgres = db.dialect.name != "sqlite"
            if isPostgres { try await db.raw("SELECT pg_advisory_lock(\(literal: Self.lockKey))").run() }
            do {
                let applied = try await Self.applyPending(migrations, on: db, now: now)
                if isPostgres { try await db.raw("SELECT pg_advisory_unlock(\(literal: Self.lockKey))").run() }
                return applied
            } catch {
                if isPostgres { try? await db.raw("SELECT pg_advisory_unlock(\(literal: Self.lockKey))").run() }
                throw error
            }
        }
    }

    /// An arbitrary constant naming Trove's migration lock.
    static let lockKey = 7_270_001

    private static func applyPending(_ migrations: [Migration], on db: any SQLDatabase, now: Date) async throws -> [Migration] {
        try await db.create(table: "schema_migrations")
            .ifNotExists()
            .column("version", type: .bigint, .primaryKey(autoIncrement: false))
            .column("name", type: .text, .notNull)
            .column("applied_at", type: .bigint, .notNull)
            .run()
        let done = try await appliedVersions(on: db)
        var applied: [Migration] = []
        for migration in migrations where !done.contains(migration.version) {
            try await db.transaction { db in
                try await db.insert(into: "schema_migrations")
                    .columns("version", "name", "applied_at")
                    .values(SQLBind(migration.version), SQLBind(migration.name), SQLBind(now.millisecondsSince1970))
                    .run()
                try await migration.apply(db)
            }
            applied.append(migration)
        }
        return applied
    }

    /// The migrations that have not been applied yet.
    public func pending() async throws -> [Migration] {
        let done = try await appliedVersions()
        return migrations.filter { !done.contains($0.version) }
    }

    public func appliedVersions() async throws -> Set<Int> {
        try await Self.appliedVersions(on: database)
    }

    private static func appliedVersions(on database: any SQLDatabase) async throws -> Set<Int> {
        let rows = try await database.select().column("version").from("schema_migrations").all()
        return Set(try rows.map { try $0.decode(column: "version", as: Int.self) })
    }
}
