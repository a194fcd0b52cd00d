import Foundation
import Weather

/// Open-Meteo's forecast API (no key): `GET {base}/v1/forecast?latitude=&longitude=&current=…`.
public struct OpenMeteoWeather: WeatherProvider {
    public static let defaultBaseURL = URL(string: "https://api.open-meteo.com")!
    let baseURL: URL
    let fetcher: JSONFetcher

    public init(baseURL: URL = defaultBaseURL, fetcher: JSONFetcher) {
        self.baseURL = baseURL
        self.fetcher = fetcher
    }

    struct Answer: Decodable, Sendable {
        struct Current: Decodable, Sendable {
            let time: String?
            let temperature_2m: Double
            let weather_code: Int
            // `is_day` is 1 or 0; tolerate its absence (then it is day).
            let is_day: Int?
        }

        let current: Current
        // With timezone=GMT the `time` is UTC.
        let utc_offset_seconds: Int?
    }

    public func current(latitude: Double, longitude: Double) async throws(WeatherUnavailable) -> CurrentWeather {
        var components = URLComponents(url: baseURL.appendingPathComponent("v1/forecast"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "latitude", value: String(format: "%.4f", latitude)),
            URLQueryItem(name: "longitude", value: String(format: "%.4f", longitude)),
            URLQueryItem(name: "current", value: "temperature_2m,weather_code,wind_speed_10m,relative_humidity_2m,is_day"),
            URLQueryItem(name: "temperature_unit", value: "celsius"),
            URLQueryItem(name: "timezone", value: "GMT"),
        ]
        let answer: Answer
        do {
            answer = try await fetcher.get(Answer.self, from: components.url!)
        } catch {
            throw WeatherUnavailable(reason: "Open-Meteo: \(error)")
        }
        let current = answer.current
        guard current.temperature_2m.isFinite, (-100...70).contains(current.temperature_2m) else {
            throw WeatherUnavailable(reason: "Open-Meteo: implausible temperature \(current.temperature_2m)")
        }
        return CurrentWeather(
            condition: WeatherCondition(wmoCode: current.weather_code),
            description: WeatherCondition.wmoDescription(current.weather_code),
            isDay: (current.is_day ?? 1) != 0,
            temperatureCelsius: current.temperature_2m,
            observedAt: current.time.flatMap(Self.parseTime) ?? Date(),
            provider: "open-meteo"
        )
    }

    /// Open-Meteo's "2026-11-22T20:15" (no seconds, no zone; UTC as asked).
    static func parseTime(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.date(from: text)
    }
}
