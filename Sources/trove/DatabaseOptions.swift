import ArgumentParser
import DatabaseDrivers
import Foundation

/// `--database` and `--config`, shared by every subcommand that touches data. Flag first, then DATABASE_URL (from the
/// environment, then the settings file), then the default.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "A file path or sqlite:PATH (SQLite), or postgres://user:pass@host:port/db. Default: $DATABASE_URL, else ./data/trove.sqlite."
    )
    var database: String?

    @Option(name: .long, help: "A settings file of NAME=value lines (as systemd's EnvironmentFile). Default: $TROVE_CONFIG, else none.")
    var config: String?

    /// The environment and the settings file, for the settings without a flag.
    func settings() throws -> Settings { try Settings.load(path: config) }

    func location() throws -> DatabaseLocation {
        let text = try database ?? settings()["DATABASE_URL"] ?? DatabaseLocation.defaultSQLitePath
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
