import DatabaseDrivers
import Foundation
import MagneticPoetry
import SQLKit
import Storage
import TestSupport
import Testing
import WebApp

@Suite struct MigratorTests {
    @Test(arguments: DatabaseKind.allCases)
    func appliesEveryMigrationOnceAndRecordsIt(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind, migrate: false) { database in
            let migrator = Migrator(database: database.sql, migrations: TroveApps.migrations)
            let first = try await migrator.migrate()
            #expect(first.map(\.version) == TroveApps.migrations.map(\.version))
            #expect(try await migrator.migrate().isEmpty)
            #expect(try await migrator.appliedVersions() == Set(TroveApps.migrations.map(\.version)))
            #expect(try await migrator.pending().isEmpty)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func twoMigratorsRacingApplyEachMigrationOnce(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind, migrate: false) { database in
            async let a = Migrator(database: database.sql, migrations: TroveApps.migrations).migrate()
            async let b = Migrator(database: database.sql, migrations: TroveApps.migrations).migrate()
            let (first, second) = try await (a, b)
            #expect(first.count + second.count == TroveApps.migrations.count)
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

    /// The order the migrations landed in (by the commit that added each): a database made at any point of
    /// that history and upgraded now must end with the schema of a fresh one.
    static let landed = [101, 201, 401, 501, 301, 601, 102, 103, 502, 602, 1000, 1001, 1002, 1003, 1004]

    @Test(arguments: DatabaseKind.allCases)
    func anUpgradedDatabaseEndsWithTheFreshSchema(kind: DatabaseKind) async throws {
        #expect(Set(Self.landed) == Set(TroveApps.migrations.map(\.version)), "a new migration joins `landed` (at the end)")
        #expect(TroveApps.migrations.filter { $0.version >= 1000 }.map(\.version) == Array(Self.landed.drop { $0 < 1000 }))
        let fresh = try await TestDatabase.with(kind, migrate: false) { database in
            try await Migrator(database: database.sql, migrations: TroveApps.migrations).migrate()
            return try await Self.schema(of: database)
        }
        let byVersion = Dictionary(uniqueKeysWithValues: TroveApps.migrations.map { ($0.version, $0) })
        for made in 1..<Self.landed.count {
            let upgraded = try await TestDatabase.with(kind, migrate: false) { database in
                try await Migrator(database: database.sql, migrations: Self.landed.prefix(made).compactMap { byVersion[$0] }).migrate()
                try await Migrator(database: database.sql, migrations: TroveApps.migrations).migrate()
                return try await Self.schema(of: database)
            }
            #expect(upgraded == fresh, "a database made after migration \(Self.landed[made - 1]) and upgraded differs")
        }
    }

    /// Every table's columns (in order, with types, nullability and defaults) and every index, as text.
    static func schema(of database: Database) async throws -> [String] {
        let rows: [any SQLRow]
        switch database.kind {
        case .sqlite:
            rows = try await database.sql.raw(
                "SELECT type || ' ' || name || ': ' || COALESCE(sql, '') AS line FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            ).all()
        case .postgres:
            rows = try await database.sql.raw(
                """
                SELECT table_name || '.' || ordinal_position || ' ' || column_name || ' ' || data_type || ' ' || is_nullable
                    || ' ' || COALESCE(column_default, '') AS line
                FROM information_schema.columns WHERE table_schema = current_schema()
                UNION ALL SELECT indexdef AS line FROM pg_indexes WHERE schemaname = current_schema()
                """
            ).all()
        }
        return try rows.map { try $0.decode(column: "line", as: String.self) }.sorted()
    }

    @Test(arguments: DatabaseKind.allCases)
    func boardsSavedWithCamelCaseKeysAreRewritten(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind, migrate: false) { database in
            try await Migrator(database: database.sql, migrations: TroveApps.migrations.filter { $0.version < 1000 }).migrate()
            let profile = try await ProfileRepository(database: database.sql).createGuest()
            let old = #"{"wordSetId":"nature","font":"serif","fontScale":1.5,"magnets":[],"extraWords":["tide"]}"#
            try await database.sql.insert(into: "poetry_poems")
                .columns("id", "profile_id", "title", "version", "board_json", "word_set_id", "created_at", "updated_at")
                .values(
                    SQLBind("p1"), SQLBind(profile.id), SQLBind("Old"), SQLBind(1), SQLBind(old), SQLBind("nature"), SQLBind(0),
                    SQLBind(0)
                )
                .run()
            try await Migrator(database: database.sql, migrations: TroveApps.migrations).migrate()
            let stored = try #require(try await PoemRepository(database: database.sql).findStored(id: "p1", profileID: profile.id))
            #expect(stored.boardJSON == #"{"word_set_id":"nature","font":"serif","font_scale":1.5,"magnets":[],"extra_words":["tide"]}"#)
            let board = try JSONDecoder().decode(Board.self, from: Data(stored.boardJSON.utf8))
            #expect(board.fontScale == 1.5 && board.extraWords == ["tide"])
        }
    }
}

private struct Boom: Error {}
