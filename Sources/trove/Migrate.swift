import ArgumentParser
import DatabaseDrivers
import Logging
import Storage

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations, and list what was applied.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        var logger = Logger(label: "trove")
        logger.logLevel = .warning
        let location = try database.location()
        let db: Database
        do {
            db = try await Database.open(location, logger: logger)
        } catch {
            throw CleanExit.failure(error.description)
        }
        do {
            let applied = try await Migrator(database: db.sql).migrate()
            await db.shutdown()
            if applied.isEmpty {
                print("The database is up to date.")
            } else {
                for migration in applied { print("Applied \(migration.version) \(migration.name)") }
            }
        } catch {
            await db.shutdown()
            throw CleanExit.failure("Migration failed: \(error)")
        }
    }
}
