import DatabaseDrivers
import Foundation
import Logging
import Storage
import WebApp

/// A fresh, migrated database of either kind for one test, removed afterwards.
///
/// PostgreSQL tests need `TROVE_TEST_POSTGRES_URL` (`make test` starts a throwaway cluster and sets it);
/// without it they fail rather than skip, so a green run always means both databases were tested.
public enum TestDatabase {
    public static func with<R>(
        _ kind: DatabaseKind, migrate: Bool = true, _ body: (Database) async throws -> R
    ) async throws -> R {
        try await withLocation(kind, migrate: migrate) { database, _ in try await body(database) }
    }

    /// The same, also handing over the database's location, for tests that open it a second time
    /// (two server instances on one database).
    public static func withLocation<R>(
        _ kind: DatabaseKind, migrate: Bool = true, _ body: (Database, DatabaseLocation) async throws -> R
    ) async throws -> R {
        let logger = Logger(label: "test")
        switch kind {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trove-test-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let location = DatabaseLocation.sqlite(path: folder.appendingPathComponent("test.sqlite").path)
            let database = try await Database.open(location, logger: logger)
            return try await run(database, migrate: migrate) { try await body($0, location) }
        case .postgres:
            let admin = try adminURL()
            let name = "trove_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased())"
            let adminDatabase = try await Database.open(.postgres(url: admin), logger: logger)
            try await adminDatabase.sql.raw("CREATE DATABASE \(unsafeRaw: name)").run()
            do {
                let location = DatabaseLocation.postgres(url: try url(admin, database: name))
                let database = try await Database.open(location, logger: logger)
                let result = try await run(database, migrate: migrate) { try await body($0, location) }
                try await adminDatabase.sql.raw("DROP DATABASE \(unsafeRaw: name) WITH (FORCE)").run()
                await adminDatabase.shutdown()
                return result
            } catch {
                try? await adminDatabase.sql.raw("DROP DATABASE \(unsafeRaw: name) WITH (FORCE)").run()
                await adminDatabase.shutdown()
                throw error
            }
        }
    }

    private static func run<R>(_ database: Database, migrate: Bool, _ body: (Database) async throws -> R) async throws -> R {
        do {
            if migrate { try await Migrator(database: database.sql, migrations: TroveApps.migrations).migrate() }
            let result = try await body(database)
            await database.shutdown()
            return result
        } catch {
            await database.shutdown()
            throw error
        }
    }

    public static func adminURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["TROVE_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw MissingPostgres()
        }
        return url
    }

    static func url(_ admin: String, database: String) throws -> String {
        guard var components = URLComponents(string: admin) else { throw MissingPostgres() }
        components.path = "/" + database
        return components.string!
    }
}

public struct MissingPostgres: Error, CustomStringConvertible {
    public var description: String {
        "TROVE_TEST_POSTGRES_URL is not set: run the tests with `make test`, which starts a throwaway PostgreSQL."
    }
}
