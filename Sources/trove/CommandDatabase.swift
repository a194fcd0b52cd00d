import DatabaseDrivers
import Logging
import Storage
import WebApp

/// Opening (and normally migrating) the database for a command, with failures as one clear line.
enum CommandDatabase {
    static func open(_ options: DatabaseOptions, migrate: Bool = true) async throws -> Database {
        var logger = Logger(label: "trove")
        logger.logLevel = .warning
        let location = try options.location()
        let db: Database
        do {
            db = try await Database.open(location, logger: logger)
        } catch {
            throw CleanExit.failure(error.description)
        }
        guard migrate else { return db }
        do {
            try await Migrator(database: db.sql, migrations: TroveApps.migrations).migrate()
        } catch {
            await db.shutdown()
            throw CleanExit.failure("Migration failed: \(error)")
        }
        return db
    }
}
