import Foundation
import Weather

/// OpenWeatherMap's current weather (needs a key): `GET {base}/data/2.5/weather?lat=&lon=&appid=&units=metric`.
/// Always asks for metric units: without them the answer is in Kelvin.
public struct OpenWeatherMapWeather: WeatherProvider {
    public static let defaultBaseURL = URL(string: "https://api.openweathermap.org")!
    let baseURL: URL
    let key: String
    let fetcher: JSONFetcher

    public init(baseURL: URL = defaultBaseURL, key: String, fetcher: JSONFetcher) {
        self.baseURL = baseURL
        self.key = key
        self.fetcher = fetcher
    }

    struct Answer: Decodable, Sendable {
        struct Condition: Decodable, Sendable {
            let id: Int
            let description: String?
            let icon: String?
        }

        struct Main: Decodable, Sendable {
            let temp: Double
        }

        let weather: [Condition]
        let main: Main
        let dt: Double?
    }

    public func current(latitude: Double, longitude: Double) async throws(WeatherUnavailable) -> CurrentWeather {
        var components = URLComponents(url: baseURL.appendingPathComponent("data/2.5/weather"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "lat", value: String(format: "%.4f", latitude)),
            URLQueryItem(name: "lon", value: String(format: "%.4f", longitude)),
            URLQueryItem(name: "appid", value: key),
            URLQueryItem(name: "units", value: "metric"),
        ]
        let answer: Answer
        do {
            answer = try await fetcher.get(Answer.self, from: components.url!)
        } catch {
            // The key is in the URL: never log the URL itself.
            throw WeatherUnavailable(reason: "OpenWeatherMap: \(error)")
        }
        guard let condition = answer.weather.first else { throw WeatherUnavailable(reason: "OpenWeatherMap: no condition") }
        guard answer.main.temp.isFinite, (-100...70).contains(answer.main.temp) else {
            throw WeatherUnavailable(reason: "OpenWeatherMap: implausible temperature \(answer.main.temp)")
        }
        let description = condition.description.map { $0.prefix(1).uppercased() + $0.dropFirst() }
        return CurrentWeather(
            condition: WeatherCondition(openWeatherMapID: condition.id),
            description: description ?? "Unknown",
            // Icons end in "d" by day and "n" by night.
            isDay: !(condition.icon ?? "").hasSuffix("n"),
            temperatureCelsius: answer.main.temp,
            observedAt: answer.dt.map { Date(timeIntervalSince1970: $0) } ?? Date(),
            provider: "openweathermap"
        )
    }
}
