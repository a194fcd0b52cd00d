import ArgumentParser
import DatabaseDrivers
import Foundation
import Hummingbird
import Logging
import WebApp

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the web server (applies pending migrations first).")

    @Option(help: "Address to listen on. Default: 127.0.0.1.")
    var host: String?

    @Option(help: "Port to listen on. Default: 8080, or $PORT.")
    var port: Int?

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "Mark the session cookie Secure (use when serving over HTTPS).")
    var secureCookies = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. Default: info, or $LOG_LEVEL.")
    var logLevel: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var configuration = AppConfiguration(database: try database.location())
        configuration.host = host ?? "127.0.0.1"
        configuration.port = port ?? environment["PORT"].flatMap(Int.init) ?? 8080
        configuration.secureCookies = secureCookies || environment["SECURE_COOKIES"] == "1"
        let levelText = logLevel ?? environment["LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: levelText) else {
            throw CleanExit.failure("Unknown log level '\(levelText)': use one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        configuration.logLevel = level
        guard (1...65535).contains(configuration.port) else {
            throw CleanExit.failure("The port \(configuration.port) is out of range: use 1 to 65535.")
        }
        do {
            let app = try await buildApplication(configuration)
            try await app.runService()
        } catch let error as DatabaseConfigurationError {
            throw CleanExit.failure(error.description)
        } catch let error as ExitCode {
            throw error
        } catch {
            // Anything else that stops the start (a port in use, a missing template) is one line too.
            let text = String(describing: error)
            if text.contains("Address already in use") {
                throw CleanExit.failure("Cannot listen on \(configuration.host):\(configuration.port): the port is in use. Stop the other server or choose another port with --port.")
            }
            throw CleanExit.failure(text)
        }
    }
}
