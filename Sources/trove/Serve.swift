import ArgumentParser
import DatabaseDrivers
import Foundation
import Hummingbird
import Logging
import WebApp

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the web server (applies pending migrations first).")

    @Option(help: "Address to listen on. Default: 127.0.0.1, or $HOST.")
    var host: String?

    @Option(help: "Port to listen on. Default: 8080, or $PORT.")
    var port: Int?

    @OptionGroup var database: DatabaseOptions

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A proxy (address or CIDR, repeatable) whose X-Forwarded-For names the client, for per-client sign-in limits. Default: $TRUSTED_PROXIES (comma-separated), else none.",
            valueName: "cidr"))
    var trustedProxies: [String] = []

    @Option(help: "Log lines as text or json (one JSON object per line). Default: text, or $LOG_FORMAT.")
    var logFormat: String?

    @Option(help: "One log line per request: on or off. Default: on, or $ACCESS_LOG.")
    var accessLog: String?

    @Option(help: "City Roulette's street map tiles: an https URL with {z}, {x} and {y}. Default: OpenStreetMap's, or $TROVE_TILE_URL.")
    var tileUrl: String?

    @Flag(help: "Mark the session cookie Secure (use when serving over HTTPS).")
    var secureCookies = false

    @Option(help: "Open-Meteo's base URL. Default: https://api.open-meteo.com, or $OPEN_METEO_URL.")
    var openMeteoUrl: String?

    @Option(help: "OpenWeatherMap's base URL. Default: https://api.openweathermap.org, or $OPENWEATHERMAP_URL.")
    var openweathermapUrl: String?

    @Option(help: "Use OpenWeatherMap with this key instead of Open-Meteo. Default: $OPENWEATHERMAP_API_KEY.")
    var openweathermapKey: String?

    @Option(help: "Seconds to wait for a weather answer before showing the weather as unavailable. Default: 3.")
    var weatherTimeout: Double?

    @Option(
        help:
            "After weather failures at several places within a minute, answer 'unavailable' at once for this many seconds before asking again (0: always ask). Default: 30."
    )
    var weatherPause: Double?

    @Option(help: "OpenStreetMap Overpass API's base URL (YogiYogini's venues). Default: https://overpass-api.de, or $OVERPASS_URL.")
    var overpassUrl: String?

    @Option(help: "Foursquare Places API's base URL. Default: https://api.foursquare.com, or $FOURSQUARE_URL.")
    var foursquareUrl: String?

    @Option(help: "Find venues with Foursquare using this key instead of OpenStreetMap. Default: $FOURSQUARE_API_KEY.")
    var foursquareKey: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. Default: info, or $LOG_LEVEL.")
    var logLevel: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var configuration = AppConfiguration(database: try database.location())
        configuration.host = host ?? environment["HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        configuration.port = port ?? environment["PORT"].flatMap(Int.init) ?? 8080
        configuration.secureCookies = secureCookies || environment["SECURE_COOKIES"] == "1"
        let proxies =
            trustedProxies.isEmpty ? (environment["TRUSTED_PROXIES"] ?? "").split(separator: ",").map(String.init) : trustedProxies
        configuration.trustedProxies = try proxies.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { text in
            guard let network = IPNetwork(text) else {
                throw CleanExit.failure("'\(text)' is not an address or CIDR: write it as 10.0.0.0/8 or ::1.")
            }
            return network
        }
        let levelText = logLevel ?? environment["LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: levelText) else {
            throw CleanExit.failure(
                "Unknown log level '\(levelText)': use one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        configuration.logLevel = level
        switch logFormat ?? environment["LOG_FORMAT"] ?? "text" {
        case "text": break
        case "json": LoggingSystem.bootstrap(JSONLogHandler.init)
        case let other: throw CleanExit.failure("Unknown log format '\(other)': use text or json.")
        }
        switch accessLog ?? environment["ACCESS_LOG"] ?? "on" {
        case "on": configuration.accessLog = true
        case "off": configuration.accessLog = false
        case let other: throw CleanExit.failure("--access-log takes on or off, not '\(other)'.")
        }
        if let tiles = tileUrl ?? environment["TROVE_TILE_URL"] {
            guard let url = URL(string: tiles.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
                url.scheme == "https", ["{z}", "{x}", "{y}"].allSatisfy(tiles.contains)
            else {
                throw CleanExit.failure(
                    "--tile-url must be an https URL (the pages allow only https pictures) with {z}, {x} and {y}, such as \(AppConfiguration.openStreetMapTiles)."
                )
            }
            configuration.mapTileURL = tiles
        }
        configuration.weather = try weatherSettings(environment)
        configuration.venues = try venueSettings(environment)
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
                throw CleanExit.failure(
                    "Cannot listen on \(configuration.host):\(configuration.port): the port is in use. Stop the other server or choose another port with --port."
                )
            }
            throw CleanExit.failure(text)
        }
    }

    private func weatherSettings(_ environment: [String: String]) throws -> WeatherSettings {
        var settings = WeatherSettings()
        if let text = openMeteoUrl ?? environment["OPEN_METEO_URL"] {
            settings.openMeteoURL = try Self.baseURL(text, option: "--open-meteo-url")
        }
        if let text = openweathermapUrl ?? environment["OPENWEATHERMAP_URL"] {
            settings.openWeatherMapURL = try Self.baseURL(text, option: "--openweathermap-url")
        }
        settings.openWeatherMapKey = openweathermapKey ?? environment["OPENWEATHERMAP_API_KEY"]
        if let timeout = weatherTimeout {
            guard timeout > 0, timeout <= 30 else {
                throw CleanExit.failure("--weather-timeout must be more than 0 and at most 30 seconds.")
            }
            settings.timeoutSeconds = timeout
        }
        if let pause = weatherPause {
            guard pause >= 0, pause <= 600 else { throw CleanExit.failure("--weather-pause must be from 0 to 600 seconds.") }
            settings.breakerPauseSeconds = pause
        }
        return settings
    }

    private func venueSettings(_ environment: [String: String]) throws -> VenueSettings {
        var settings = VenueSettings()
        if let text = overpassUrl ?? environment["OVERPASS_URL"] { settings.overpassURL = try Self.baseURL(text, option: "--overpass-url") }
        if let text = foursquareUrl ?? environment["FOURSQUARE_URL"] {
            settings.foursquareURL = try Self.baseURL(text, option: "--foursquare-url")
        }
        settings.foursquareKey = foursquareKey ?? environment["FOURSQUARE_API_KEY"]
        return settings
    }

    private static func baseURL(_ text: String, option: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw CleanExit.failure("\(option) must be an http or https address, such as https://api.open-meteo.com.")
        }
        return url
    }
}
