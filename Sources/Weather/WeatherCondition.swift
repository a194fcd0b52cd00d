/// What the sky is doing, in the few kinds Trove draws an icon for. Both weather providers map onto these.
public enum WeatherCondition: String, Sendable, CaseIterable, Codable {
    case clear
    case partlyCloudy = "partly_cloudy"
    case cloudy
    case fog
    case drizzle
    case rain
    case snow
    case thunderstorm
    case unknown

    /// Open-Meteo's WMO weather interpretation code (0 clear … 99 thunderstorm with hail).
    public init(wmoCode code: Int) {
        switch code {
        case 0: self = .clear
        case 1, 2: self = .partlyCloudy
        case 3: self = .cloudy
        case 45, 48: self = .fog
        case 51...57: self = .drizzle
        case 61...67, 80...82: self = .rain
        case 71...77, 85, 86: self = .snow
        case 95...99: self = .thunderstorm
        default: self = .unknown
        }
    }

    /// OpenWeatherMap's condition id (`weather[0].id`): 2xx storm, 3xx drizzle, 5xx rain, 6xx snow,
    /// 7xx atmosphere, 800 clear, 801–802 some clouds, 803–804 overcast.
    public init(openWeatherMapID id: Int) {
        switch id {
        case 200..<300: self = .thunderstorm
        case 300..<400: self = .drizzle
        case 500..<600: self = .rain
        case 600..<700: self = .snow
        case 700..<800: self = .fog
        case 800: self = .clear
        case 801, 802: self = .partlyCloudy
        case 803, 804: self = .cloudy
        default: self = .unknown
        }
    }

    /// A short English description for a WMO code, as Open-Meteo sends none.
    public static func wmoDescription(_ code: Int) -> String {
        switch code {
        case 0: "Clear sky"
        case 1: "Mainly clear"
        case 2: "Partly cloudy"
        case 3: "Overcast"
        case 45: "Fog"
        case 48: "Freezing fog"
        case 51, 53, 55: "Drizzle"
        case 56, 57: "Freezing drizzle"
        case 61, 63: "Rain"
        case 65: "Heavy rain"
        case 66, 67: "Freezing rain"
        case 71, 73: "Snow"
        case 75: "Heavy snow"
        case 77: "Snow grains"
        case 80, 81: "Rain showers"
        case 82: "Violent rain showers"
        case 85, 86: "Snow showers"
        case 95: "Thunderstorm"
        case 96, 99: "Thunderstorm with hail"
        default: "Unknown"
        }
    }
}
