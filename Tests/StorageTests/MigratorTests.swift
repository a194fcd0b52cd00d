import DatabaseDrivers
import Storage
import TestSupport
import Testing

@Suite struct MigratorTests {
    @Test(arguments: DatabaseKind.allCases)
    func appliesEveryMigrationOnceAndRecordsIt(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind, migrate: false) { database in
            let migrator = Migrator(database: database.sql)
            let first = try await migrator.migrate()
            #expect(first.map(\.version) == Migrations.all.map(\.version))
            #expect(try await migrator.migrate().isEmpty)
            #expect(try await migrator.appliedVersions() == Set(Migrations.all.map(\.version)))
            #expect(try await migrator.pending().isEmpty)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func twoMigratorsRacingApplyEachMigrationOnce(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind, migrate: false) { database in
            async let a = Migrator(database: database.sql).migrate()
            async let b = Migrator(database: database.sql).migrate()
            let (first, second) = try await (a, b)
            #expect(first.count + second.count == Migrations.all.count)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func failedMigrationLeavesNothingBehind(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind, migrate: false) { database in
            let broken = Migration(version: 999, name: "broken") { db in
                try await db.create(table: "half_made").column("id", type: .bigint, .primaryKey).run()
                throw Boom()
            }
            await #expect(throws: Boom.self) { try await Migrator(database: database.sql, migrations: [broken]).migrate() }
            let pending = try await Migrator(database: database.sql, migrations: [broken]).pending()
            #expect(pending.count == 1)
            // The table created before the failure was rolled back with it.
            let again = Migration(version: 999, name: "fixed") { db in
                try await db.create(table: "half_made").column("id", type: .bigint, .primaryKey).run()
            }
            let applied = try await Migrator(database: database.sql, migrations: [again]).migrate()
            #expect(applied.count == 1)
        }
    }
}

private struct Boom: Error {}
