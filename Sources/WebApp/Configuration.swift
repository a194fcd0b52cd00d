import DatabaseDrivers
import Foundation
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
    public var weather: WeatherSettings
    public var venues: VenueSettings
    /// One line per request (method, path, status, time, request id) at info level; off saves its cost on a busy server.
    public var accessLog: Bool = true
    /// How log lines are written (the access log writes its own lines in the same format).
    public var logFormat: LogFormat = .text
    /// Proxies whose `X-Forwarded-For` names the client (for per-client limits); none by default.
    public var trustedProxies: [IPNetwork] = []
    /// `/metrics` answers a request bearing this token (`Authorization: Bearer …`, as Prometheus sends it); with
    /// none, only a request made on this machine and not through a proxy.
    public var metricsToken: String?
    /// City Roulette's street map: a raster tile URL with {z}, {x} and {y} (OpenStreetMap's by default; respect the
    /// tile server's usage policy, or run your own).
    public var mapTileURL: String = AppConfiguration.openStreetMapTiles
    /// Where City Roulette asks for a city's article (Wikipedia's API and REST API under one base).
    public var wikipediaURL = URL(string: "https://en.wikipedia.org")!
    public static let openStreetMapTiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        database: DatabaseLocation = .sqlite(path: DatabaseLocation.defaultSQLitePath),
        secureCookies: Bool = false,
        passwordHashCost: UInt8 = 12,
        sessionLifetimeSeconds: Double = 60 * 60 * 24 * 30,
        logLevel: Logger.Level = .info,
        weather: WeatherSettings = WeatherSettings(),
        venues: VenueSettings = VenueSettings()
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.secureCookies = secureCookies
        self.passwordHashCost = passwordHashCost
        self.sessionLifetimeSeconds = sessionLifetimeSeconds
        self.logLevel = logLevel
        self.weather = weather
        self.venues = venues
    }
}

/// Where weather comes from: Open-Meteo unless an OpenWeatherMap key is set. Base URLs are configuration
/// so tests (and mirrors) can point them elsewhere.
public struct WeatherSettings: Sendable {
    public var openMeteoURL: URL
    public var openWeatherMapURL: URL
    public var openWeatherMapKey: String?
    /// A slower answer counts as no answer: the weather shows as unavailable.
    public var timeoutSeconds: Double
    /// After failures at several places within a minute, weather is answered "unavailable" at once for this
    /// long before the provider is asked again (0: always ask).
    public var breakerPauseSeconds: Double

    public init(
        openMeteoURL: URL = URL(string: "https://api.open-meteo.com")!,
        openWeatherMapURL: URL = URL(string: "https://api.openweathermap.org")!,
        openWeatherMapKey: String? = nil,
        timeoutSeconds: Double = 3,
        breakerPauseSeconds: Double = 30
    ) {
        self.openMeteoURL = openMeteoURL
        self.openWeatherMapURL = openWeatherMapURL
        self.openWeatherMapKey = openWeatherMapKey
        self.timeoutSeconds = timeoutSeconds
        self.breakerPauseSeconds = breakerPauseSeconds
    }
}

/// Where YogiYogini finds venues: OpenStreetMap's Overpass API unless a Foursquare key is set.
public struct VenueSettings: Sendable {
    public var overpassURL: URL
    public var foursquareURL: URL
    public var foursquareKey: String?
    public var timeoutSeconds: Double

    public init(
        overpassURL: URL = URL(string: "https://overpass-api.de")!,
        foursquareURL: URL = URL(string: "https://api.foursquare.com")!,
        foursquareKey: String? = nil,
        timeoutSeconds: Double = 5
    ) {
        self.overpassURL = overpassURL
        self.foursquareURL = foursquareURL
        self.foursquareKey = foursquareKey
        self.timeoutSeconds = timeoutSeconds
    }
}
