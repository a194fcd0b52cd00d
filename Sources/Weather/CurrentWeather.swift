import Foundation

/// The weather at a place now, in one shape whichever provider answered. Temperatures are always Celsius;
/// pages convert for people who prefer Fahrenheit.
public struct CurrentWeather: Sendable, Equatable {
    public var condition: WeatherCondition
    public var description: String
    public var isDay: Bool
    public var temperatureCelsius: Double
    public var observedAt: Date
    public var provider: String

    public init(
        condition: WeatherCondition, description: String, isDay: Bool, temperatureCelsius: Double, observedAt: Date, provider: String
    ) {
        self.condition = condition
        self.description = description
        self.isDay = isDay
        self.temperatureCelsius = temperatureCelsius
        self.observedAt = observedAt
        self.provider = provider
    }
}

/// Where weather comes from. The live ones (Open-Meteo, OpenWeatherMap) are in Providers.
public protocol WeatherProvider: Sendable {
    /// Throws `WeatherUnavailable` when the service is slow, down or answers nonsense.
    func current(latitude: Double, longitude: Double) async throws(WeatherUnavailable) -> CurrentWeather
}

/// The service gave no usable answer; `reason` is for the log, not for people.
public struct WeatherUnavailable: Error, Sendable, Equatable {
    public let reason: String
    /// Set when Trove itself holds back (the circuit breaker): seconds until it asks the provider again.
    public let retryAfter: TimeInterval?
    public init(reason: String, retryAfter: TimeInterval? = nil) {
        self.reason = reason
        self.retryAfter = retryAfter
    }
}
