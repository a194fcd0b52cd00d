import ArgumentParser
import Foundation
import Storage

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a consistent backup of the database while the server keeps serving.",
        discussion: """
            The backup is one file (gzip of JSON lines, with a format version and a checksum) that `trove restore` \
            loads into an empty SQLite or PostgreSQL database: a backup from SQLite restored into PostgreSQL is how \
            a grown install moves.
            """
    )

    @Option(name: .long, help: "The file to write (it is replaced).")
    var to: String

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let url = URL(fileURLWithPath: to)
        let db = try await CommandDatabase.open(database, migrate: false)
        do {
            let started = Date()
            let summary = try await DatabaseBackup(database: db).backUp(to: url)
            await db.shutdown()
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            print(
                "Backed up \(summary.rows) rows of \(summary.tables) tables to \(to) (\(size / 1024) KB, \(String(format: "%.1f", Date().timeIntervalSince(started))) s)."
            )
        } catch {
            await db.shutdown()
            throw CleanExit.failure("The backup failed: \(error)")
        }
    }
}

struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load a backup into an empty database (SQLite or PostgreSQL); nothing is written from a damaged file."
    )

    @Argument(help: "The backup file `trove backup` wrote.")
    var file: String

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        guard FileManager.default.isReadableFile(atPath: file) else { throw CleanExit.failure("Cannot read \(file).") }
        let db = try await CommandDatabase.open(database, migrate: true)
        do {
            let summary = try await DatabaseBackup(database: db).restore(from: URL(fileURLWithPath: file))
            await db.shutdown()
            print("Restored \(summary.rows) rows of \(summary.tables) tables from \(file).")
        } catch {
            await db.shutdown()
            throw CleanExit.failure("Nothing was restored: \(error)")
        }
    }
}
