import DatabaseDrivers
import Logging

/// Everything `buildApplication` needs, read once by the command line (flags, then environment, then defaults).
public struct AppConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var database: DatabaseLocation
    /// Marks the session cookie Secure; it is also Secure on requests that arrived over TLS through a proxy.
    public var secureCookies: Bool
    /// bcrypt cost; 12 in production, lower only in tests.
    public var passwordHashCost: UInt8
    public var sessionLifetimeSeconds: Double
    public var logLevel: Logger.Level

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        database: DatabaseLocation = .sqlite(path: DatabaseLocation.defaultSQLitePath),
        secureCookies: Bool = false,
        passwordHashCost: UInt8 = 12,
        sessionLifetimeSeconds: Double = 60 * 60 * 24 * 30,
        logLevel: Logger.Level = .info
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.secureCookies = secureCookies
        self.passwordHashCost = passwordHashCost
        self.sessionLifetimeSeconds = sessionLifetimeSeconds
        self.logLevel = logLevel
    }
}
