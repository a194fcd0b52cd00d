import Foundation

/// Where a setting comes from when its flag is not given: the environment, then the settings file, then its
/// default.
///
/// The settings file (`--config FILE`, or `$TROVE_CONFIG`) holds `NAME=value` lines, the format of systemd's
/// `EnvironmentFile=`, so one file serves the service manager and a `trove` command run by hand. `#` starts a
/// comment line, a value may be in single or double quotes, and `export ` before a name is allowed. A name
/// Trove does not know is refused, so a typo never leaves a default silently in place.
struct Settings: Sendable {
    /// Every setting Trove reads from the environment, and whether its value is a secret (`trove config` hides it).
    static let known: [String: Bool] = [
        "HOST": false, "PORT": false, "DATABASE_URL": true, "SECURE_COOKIES": false, "TRUSTED_PROXIES": false, "LOG_LEVEL": false,
        "LOG_FORMAT": false, "ACCESS_LOG": false, "TROVE_TILE_URL": false, "OPEN_METEO_URL": false, "OPENWEATHERMAP_URL": false,
        "OPENWEATHERMAP_API_KEY": true, "WEATHER_TIMEOUT": false, "WEATHER_PAUSE": false, "OVERPASS_URL": false, "FOURSQUARE_URL": false,
        "FOURSQUARE_API_KEY": true, "GITHUB_TOKEN": true, "GITHUB_API_URL": false, "GITHUB_RAW_URL": false, "WIKIPEDIA_URL": false,
        "METRICS_TOKEN": true,
    ]

    enum Origin: Equatable, Sendable {
        case flag, environment
        case file(String)
        case defaultValue

        var description: String {
            switch self {
            case .flag: "flag"
            case .environment: "environment"
            case .file(let path): path
            case .defaultValue: "default"
            }
        }
    }

    let environment: [String: String]
    let file: [String: String]
    let filePath: String?

    /// The environment, and the settings file `path` (else `$TROVE_CONFIG`) when one is named.
    static func load(path: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Settings {
        guard let path = path ?? environment["TROVE_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            return Settings(environment: environment, file: [:], filePath: nil)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CleanExit.failure("Cannot read the settings file '\(path)'.")
        }
        do {
            return Settings(environment: environment, file: try parse(String(decoding: data, as: UTF8.self)), filePath: path)
        } catch {
            throw CleanExit.failure("'\(path)', line \(error.line): \(error.message)")
        }
    }

    struct LineError: Error, Equatable {
        let line: Int
        let message: String
    }

    /// The `NAME=value` lines of a settings file.
    static func parse(_ text: String) throws(LineError) -> [String: String] {
        var values: [String: String] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst("export ".count)).trimmingCharacters(in: .whitespaces) }
            guard let equals = line.firstIndex(of: "=") else {
                throw LineError(line: index + 1, message: "expected NAME=value.")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard known[name] != nil else {
                throw LineError(line: index + 1, message: "'\(name)' is not a Trove setting (trove config lists them).")
            }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let quote = value.first, quote == "\"" || quote == "'", value.last == quote {
                value = String(value.dropFirst().dropLast())
            }
            values[name] = value
        }
        return values
    }

    /// The value of `name` and where it comes from; an empty value counts as not set.
    func value(_ name: String) -> (text: String, origin: Origin)? {
        if let text = environment[name], !text.isEmpty { return (text, .environment) }
        if let text = file[name], !text.isEmpty, let filePath { return (text, .file(filePath)) }
        return nil
    }

    subscript(name: String) -> String? { value(name)?.text }
}
