import ArgumentParser
import Storage
import WebApp

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations, and list what was applied.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let db = try await CommandDatabase.open(database, migrate: false)
        do {
            let applied = try await Migrator(database: db.sql, migrations: TroveApps.migrations).migrate()
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
