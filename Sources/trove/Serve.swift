import ArgumentParser
import DatabaseDrivers
import Foundation
import Hummingbird
import Logging
import WebApp

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the web server (applies pending migrations first).")

    @OptionGroup var options: ServeOptions

    func run() async throws {
        let (configuration, logFormat, _) = try options.resolve()
        LoggingSystem.bootstrap(logFormat == "json" ? JSONLogHandler.init : TextLogHandler.init)
        defer { LogOutput.standardOutput.flush() }
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
}

/// One setting as `trove config` shows it.
struct ShownSetting {
    let name: String
    let value: String?
    let origin: Settings.Origin
}

/// A setting's flag, else its value in the environment or the settings file, else its default; each pick is kept
/// for `trove config`.
final class SettingPicker {
    let settings: Settings
    private(set) var shown: [ShownSetting] = []

    init(_ settings: Settings) { self.settings = settings }

    func callAsFunction(_ flag: String?, _ name: String, _ fallback: String?) -> String? {
        let found: (text: String, origin: Settings.Origin)? =
            flag.map { ($0, .flag) } ?? settings.value(name) ?? fallback.map { ($0, .defaultValue) }
        shown.append(ShownSetting(name: name, value: found?.text, origin: found?.origin ?? .defaultValue))
        return found?.text
    }
}

/// `trove serve`'s flags; each also comes from the environment or the settings file (`Settings`).
struct ServeOptions: ParsableArguments {
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

    @Option(help: "Seconds to wait for a weather answer before showing the weather as unavailable. Default: 3, or $WEATHER_TIMEOUT.")
    var weatherTimeout: Double?

    @Option(
        help:
            "After weather failures at several places within a minute, answer 'unavailable' at once for this many seconds before asking again (0: always ask). Default: 30, or $WEATHER_PAUSE."
    )
    var weatherPause: Double?

    @Option(help: "Wikipedia's base URL (City Roulette's articles). Default: https://en.wikipedia.org, or $WIKIPEDIA_URL.")
    var wikipediaUrl: String?

    @Option(help: "OpenStreetMap Overpass API's base URL (YogiYogini's venues). Default: https://overpass-api.de, or $OVERPASS_URL.")
    var overpassUrl: String?

    @Option(
        help:
            "/metrics answers only a request with 'Authorization: Bearer TOKEN'. Default: $METRICS_TOKEN, else only requests from this machine not through a proxy."
    )
    var metricsToken: String?

    @Option(help: "Foursquare Places API's base URL. Default: https://api.foursquare.com, or $FOURSQUARE_URL.")
    var foursquareUrl: String?

    @Option(help: "Find venues with Foursquare using this key instead of OpenStreetMap. Default: $FOURSQUARE_API_KEY.")
    var foursquareKey: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. Default: info, or $LOG_LEVEL.")
    var logLevel: String?

    /// What `trove serve` with these flags runs with, and where each setting came from (for `trove config`).
    func resolve() throws -> (configuration: AppConfiguration, logFormat: String, shown: [ShownSetting]) {
        let pick = SettingPicker(try database.settings())
        var configuration = AppConfiguration(database: try database.location())
        _ = pick(database.database, "DATABASE_URL", DatabaseLocation.defaultSQLitePath)
        configuration.host = pick(host, "HOST", "127.0.0.1") ?? "127.0.0.1"
        let portText = pick(port.map(String.init), "PORT", "8080") ?? "8080"
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw CleanExit.failure("The port \(portText) is out of range: use 1 to 65535.")
        }
        configuration.port = port
        configuration.secureCookies = pick(secureCookies ? "1" : nil, "SECURE_COOKIES", "0") == "1"
        let proxies = pick(trustedProxies.isEmpty ? nil : trustedProxies.joined(separator: ","), "TRUSTED_PROXIES", nil) ?? ""
        configuration.trustedProxies = try proxies.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }.map { text in
            guard let network = IPNetwork(text) else {
                throw CleanExit.failure("'\(text)' is not an address or CIDR: write it as 10.0.0.0/8 or ::1.")
            }
            return network
        }
        let levelText = pick(logLevel, "LOG_LEVEL", "info") ?? "info"
        guard let level = Logger.Level(rawValue: levelText) else {
            throw CleanExit.failure(
                "Unknown log level '\(levelText)': use one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        configuration.logLevel = level
        let format = pick(logFormat, "LOG_FORMAT", "text") ?? "text"
        guard let logFormat = LogFormat(rawValue: format) else {
            throw CleanExit.failure("Unknown log format '\(format)': use text or json.")
        }
        configuration.logFormat = logFormat
        switch pick(accessLog, "ACCESS_LOG", "on") ?? "on" {
        case "on": configuration.accessLog = true
        case "off": configuration.accessLog = false
        case let other: throw CleanExit.failure("--access-log takes on or off, not '\(other)'.")
        }
        let tiles = pick(tileUrl, "TROVE_TILE_URL", AppConfiguration.openStreetMapTiles) ?? AppConfiguration.openStreetMapTiles
        guard let url = URL(string: tiles.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
            url.scheme == "https", ["{z}", "{x}", "{y}"].allSatisfy(tiles.contains)
        else {
            throw CleanExit.failure(
                "--tile-url must be an https URL (the pages allow only https pictures) with {z}, {x} and {y}, such as \(AppConfiguration.openStreetMapTiles)."
            )
        }
        configuration.mapTileURL = tiles
        configuration.metricsToken = pick(metricsToken, "METRICS_TOKEN", nil).flatMap { $0.isEmpty ? nil : $0 }
        if let text = pick(wikipediaUrl, "WIKIPEDIA_URL", configuration.wikipediaURL.absoluteString) {
            configuration.wikipediaURL = try Self.baseURL(text, option: "--wikipedia-url")
        }
        configuration.weather = try weatherSettings(pick)
        configuration.venues = try venueSettings(pick)
        return (configuration, format, pick.shown)
    }

    private func weatherSettings(_ pick: SettingPicker) throws -> WeatherSettings {
        var settings = WeatherSettings()
        if let text = pick(openMeteoUrl, "OPEN_METEO_URL", settings.openMeteoURL.absoluteString) {
            settings.openMeteoURL = try Self.baseURL(text, option: "--open-meteo-url")
        }
        if let text = pick(openweathermapUrl, "OPENWEATHERMAP_URL", settings.openWeatherMapURL.absoluteString) {
            settings.openWeatherMapURL = try Self.baseURL(text, option: "--openweathermap-url")
        }
        settings.openWeatherMapKey = pick(openweathermapKey, "OPENWEATHERMAP_API_KEY", nil)
        let timeoutText = pick(weatherTimeout.map { "\($0)" }, "WEATHER_TIMEOUT", "\(settings.timeoutSeconds)") ?? ""
        guard let timeout = Double(timeoutText), timeout > 0, timeout <= 30 else {
            throw CleanExit.failure("--weather-timeout must be more than 0 and at most 30 seconds, not '\(timeoutText)'.")
        }
        settings.timeoutSeconds = timeout
        let pauseText = pick(weatherPause.map { "\($0)" }, "WEATHER_PAUSE", "\(settings.breakerPauseSeconds)") ?? ""
        guard let pause = Double(pauseText), pause >= 0, pause <= 600 else {
            throw CleanExit.failure("--weather-pause must be from 0 to 600 seconds, not '\(pauseText)'.")
        }
        settings.breakerPauseSeconds = pause
        return settings
    }

    private func venueSettings(_ pick: SettingPicker) throws -> VenueSettings {
        var settings = VenueSettings()
        if let text = pick(overpassUrl, "OVERPASS_URL", settings.overpassURL.absoluteString) {
            settings.overpassURL = try Self.baseURL(text, option: "--overpass-url")
        }
        if let text = pick(foursquareUrl, "FOURSQUARE_URL", settings.foursquareURL.absoluteString) {
            settings.foursquareURL = try Self.baseURL(text, option: "--foursquare-url")
        }
        settings.foursquareKey = pick(foursquareKey, "FOURSQUARE_API_KEY", nil)
        return settings
    }

    private static func baseURL(_ text: String, option: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw CleanExit.failure("\(option) must be an http or https address, such as https://api.open-meteo.com.")
        }
        return url
    }
}
