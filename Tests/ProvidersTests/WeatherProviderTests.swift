import Foundation
import Hummingbird
import HummingbirdTesting
import Providers
import Testing
import Weather

/// The two weather providers against a local fake that answers in each service's real shape,
/// and slowly, wrongly or with garbage when asked for the places that do.
@Suite struct WeatherProviderTests {
    static let openMeteoAnswer = #"""
        {"latitude":43.78,"longitude":11.25,"generationtime_ms":0.05,"utc_offset_seconds":0,"timezone":"GMT","timezone_abbreviation":"GMT",
         "elevation":52.0,"current_units":{"time":"iso8601","interval":"seconds","temperature_2m":"°C","weather_code":"wmo code","is_day":""},
         "current":{"time":"2026-11-22T20:15","interval":900,"temperature_2m":12.4,"weather_code":61,"wind_speed_10m":5.1,"relative_humidity_2m":81,"is_day":0}}
        """#

    static let openWeatherMapAnswer = #"""
        {"coord":{"lon":11.25,"lat":43.78},"weather":[{"id":803,"main":"Clouds","description":"broken clouds","icon":"04d"}],
         "base":"stations","main":{"temp":12.4,"feels_like":11.6,"temp_min":11.1,"temp_max":13.3,"pressure":1017,"humidity":72},
         "visibility":10000,"wind":{"speed":2.1,"deg":80},"clouds":{"all":75},"dt":1795378500,
         "sys":{"type":2,"id":2004688,"country":"IT","sunrise":1795363294,"sunset":1795397023},"timezone":3600,"id":3176959,"name":"Florence","cod":200}
        """#

    /// Latitude 1 answers slowly, 2 with a 500, 3 with garbage, 4 with the wrong JSON; anything else well.
    func withFakeWeather(_ body: @Sendable @escaping (URL) async throws -> Void) async throws {
        let router = Router()
        @Sendable func answer(_ request: Request, good: String) async throws -> Response {
            let latitude = request.uri.queryParameters.get("latitude") ?? request.uri.queryParameters.get("lat") ?? ""
            switch Double(latitude).map(Int.init) {
            case 1:
                try await Task.sleep(for: .seconds(30))
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: good)))
            case 2: return Response(status: .internalServerError)
            case 3: return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<html>busy</html>")))
            case 4:
                return Response(
                    status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"current":{"temperature_2m":"warm"},"weather":[]}"#)))
            default: return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: good)))
            }
        }
        router.get("/v1/forecast") { request, _ in
            #expect(request.uri.queryParameters.get("current")?.contains("weather_code") == true)
            return try await answer(request, good: Self.openMeteoAnswer)
        }
        router.get("/data/2.5/weather") { request, _ in
            guard request.uri.queryParameters.get("appid") == "good-key" else {
                return Response(
                    status: .unauthorized, body: .init(byteBuffer: ByteBuffer(string: #"{"cod":401,"message":"Invalid API key."}"#)))
            }
            #expect(request.uri.queryParameters.get("units") == "metric")
            return try await answer(request, good: Self.openWeatherMapAnswer)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body(URL(string: "http://127.0.0.1:\(client.port!)")!)
        }
    }

    /// For answers that should fail: a short deadline. For good answers, a patient one, because a machine
    /// running every suite at once can starve the fake server for a second or more.
    let fetcher = JSONFetcher(timeout: .seconds(1))
    let patient = JSONFetcher(timeout: .seconds(10))

    @Test func readsOpenMeteo() async throws {
        try await withFakeWeather { base in
            let weather = try await OpenMeteoWeather(baseURL: base, fetcher: patient).current(latitude: 43.78, longitude: 11.25)
            #expect(weather.condition == .rain && weather.description == "Rain" && weather.temperatureCelsius == 12.4 && !weather.isDay)
            #expect(weather.observedAt == ISO8601DateFormatter().date(from: "2026-11-22T20:15:00Z"))
            #expect(weather.provider == "open-meteo")
        }
    }

    @Test func readsOpenWeatherMapInCelsius() async throws {
        try await withFakeWeather { base in
            let weather = try await OpenWeatherMapWeather(baseURL: base, key: "good-key", fetcher: patient).current(
                latitude: 43.78, longitude: 11.25)
            #expect(
                weather.condition == .cloudy && weather.description == "Broken clouds" && weather.temperatureCelsius == 12.4
                    && weather.isDay)
            #expect(weather.provider == "openweathermap")
            await #expect(throws: WeatherUnavailable.self) {
                try await OpenWeatherMapWeather(baseURL: base, key: "bad-key", fetcher: patient).current(latitude: 43.78, longitude: 11.25)
            }
        }
    }

    @Test(arguments: [1.0, 2.0, 3.0, 4.0])
    func slowFailingAndGarbageAnswersAreUnavailable(latitude: Double) async throws {
        try await withFakeWeather { base in
            let started = ContinuousClock.now
            async let openMeteo = isUnavailable(OpenMeteoWeather(baseURL: base, fetcher: fetcher), latitude: latitude)
            async let openWeatherMap = isUnavailable(
                OpenWeatherMapWeather(baseURL: base, key: "good-key", fetcher: fetcher), latitude: latitude)
            let answers = await [openMeteo, openWeatherMap]
            #expect(answers == [true, true])
            // A 1 s deadline (Deadline does not wait for the cancelled request), against a service that takes 30 s. The
            // rest is the test process's own scheduling: worst seen 7.3 s, with browser suites running beside the full
            // swift test run; half the slow answer still tells the two apart.
            #expect(ContinuousClock.now - started < .seconds(15))
        }
    }

    func isUnavailable(_ provider: some WeatherProvider, latitude: Double) async -> Bool {
        do {
            _ = try await provider.current(latitude: latitude, longitude: 0)
            return false
        } catch {
            return true
        }
    }

    @Test func anUnreachableServiceIsUnavailable() async {
        await #expect(throws: WeatherUnavailable.self) {
            try await OpenMeteoWeather(baseURL: URL(string: "http://127.0.0.1:1")!, fetcher: fetcher).current(latitude: 0, longitude: 0)
        }
    }
}
