import Hummingbird
import Weather
import YogiYogini

/// An error that knows its HTTP answer. Each app's domain error adopts it in the app's own folder, beside its
/// controllers (`PoetryError+HTTP.swift`, …), and `TroveApp` requires it, so an app cannot leave its errors to
/// become 500s.
protocol HTTPMappedError: Error {
    var apiError: APIError { get }
}

/// The shared weather cache's refusal (City Roulette and YogiYogini).
extension WeatherUnavailable: HTTPMappedError {
    var apiError: APIError {
        guard let wait = retryAfter.map({ Int($0.rounded(.up)) }) else {
            return APIError(
                .serviceUnavailable, code: "weather_unavailable",
                message: "The weather service is not answering right now: try again later.")
        }
        return APIError(
            .serviceUnavailable, code: "weather_unavailable",
            message: "The weather service failed several times in the last minute: Trove asks again in \(wait) s.",
            headers: [.retryAfter: String(wait)])
    }
}

extension VenuesUnavailable: HTTPMappedError {
    var apiError: APIError {
        APIError(
            .serviceUnavailable, code: "venues_unavailable",
            message: "The venue search is not answering right now: pick a saved venue or type one.")
    }
}
