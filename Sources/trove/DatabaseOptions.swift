import ArgumentParser
import DatabaseDrivers
import Foundation

/// `--database`, shared by every subcommand that touches data. Flag first, then DATABASE_URL, then the default.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "A file path or sqlite:PATH (SQLite), or postgres://user:pass@host:port/db. Default: $DATABASE_URL, else ./data/trove.sqlite."
    )
    var database: String?

    func location() throws -> DatabaseLocation {
        let text =
            database ?? ProcessInfo.processInfo.environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? DatabaseLocation.defaultSQLitePath
        do {
            return try DatabaseLocation(parsing: text)
        } catch {
            throw CleanExit.failure(error.description)
        }
    }
}

/// Ends the program with one clear line on standard error and a non-zero status, never a stack trace.
enum CleanExit {
    static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("trove: \(message)\n".utf8))
        return ExitCode.failure
    }
}
