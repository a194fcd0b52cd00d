import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import WebApp

/// A city's weather through the API, from a fake Open-Meteo that answers well for Florence, slowly for
/// Prato and with garbage for Fiesole: those two show as unavailable, quickly, and nothing else breaks.
@Suite struct CityWeatherAPITests {
    func withFakeOpenMeteo(_ body: @Sendable @escaping (URL) async throws -> Void) async throws {
        let router = Router()
        router.get("/v1/forecast") { request, _ in
            let latitude = request.uri.queryParameters.get("latitude") ?? ""
            if latitude.hasPrefix("43.884") {
                try await Task.sleep(for: .seconds(6))
            }
            if latitude.hasPrefix("43.806") {
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "{\"current\": 12")))
            }
            let answer =
                #"{"latitude":43.78,"longitude":11.25,"timezone":"GMT","current":{"time":"2026-11-22T20:15","interval":900,"temperature_2m":12.44,"weather_code":3,"is_day":1},"current_units":{"temperature_2m":"°C"}}"#
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: answer)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(URL(string: "http://127.0.0.1:\(client.port!)")!) }
    }

    /// `trove_cache_lookups_total{cache="weather",result="hit"}` in the metrics text.
    static func weatherHits() -> Double {
        let prefix = #"trove_cache_lookups_total{cache="weather",result="hit"} "#
        return Telemetry.text().split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) } ?? 0
    }

    @Test(arguments: DatabaseKind.allCases)
    func showsWeatherAndDegradesWhenTheProviderFails(kind: DatabaseKind) async throws {
        try await withFakeOpenMeteo { fake in
            try await withCityApp(kind, weatherURL: fake) { client, _ in
                let good = try await client.execute(uri: "/api/v1/cities/\(TestCities.florenceID)/weather", method: .get)
                #expect(good.status == .ok)
                let weather = try good.json()
                #expect(weather["condition"] as? String == "cloudy" && weather["temperature_c"] as? Double == 12.4)
                #expect(weather["description"] as? String == "Overcast" && weather["provider"] as? String == "open-meteo")
                #expect(weather["cached"] as? Bool == false)
                let hits = Self.weatherHits()
                #expect(
                    try await client.execute(uri: "/api/v1/cities/\(TestCities.florenceID)/weather", method: .get).json()["cached"] as? Bool
                        == true)
                // /metrics counts the cache's answers (other tests share the counter, so it only has to move).
                #expect(Self.weatherHits() > hits)
                #expect(
                    try await client.execute(uri: "/api/v1/cities/\(TestCities.florenceID)/weather?refresh=1", method: .get).json()[
                        "cached"] as? Bool == false)

                let started = ContinuousClock.now
                let slow = try await client.execute(uri: "/api/v1/cities/\(TestCities.pratoID)/weather", method: .get)
                #expect(slow.status == .serviceUnavailable && slow.errorCode == "weather_unavailable")
                #expect(ContinuousClock.now - started < .seconds(5))
                let garbage = try await client.execute(uri: "/api/v1/cities/3177090/weather", method: .get)
                #expect(garbage.status == .serviceUnavailable && garbage.errorCode == "weather_unavailable")
                // The rest of the app carries on.
                #expect(try await client.execute(uri: "/api/v1/cities/\(TestCities.pratoID)", method: .get).status == .ok)
                // YogiYogini's temperature at a point (a class held on the device): the same weather, nothing kept.
                let point = try await client.execute(uri: "/api/v1/yoga/weather?lat=43.7793&lon=11.2463", method: .get)
                #expect(point.status == .ok)
                #expect(try point.json()["temperature_c"] as? Double == 12.4)
            }
        }
    }
}

@Suite struct CityPagesTests {
    @Test(arguments: DatabaseKind.allCases)
    func rendersTheAppACityAndACountry(kind: DatabaseKind) async throws {
        try await withCityApp(kind) { client, _ in
            let app = try await client.execute(uri: "/cities", method: .get)
            #expect(app.status == .ok && app.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(app.bodyText.contains("GeoNames"))
            // The street map's tiles: OpenStreetMap's unless the server is told otherwise (--tile-url).
            #expect(app.bodyText.contains("tile.openstreetmap.org"))
            let city = try await client.execute(uri: "/cities/\(TestCities.florenceID)", method: .get)
            #expect(city.status == .ok && city.bodyText.contains("Florence") && city.bodyText.contains("349,296"))
            #expect(city.bodyText.contains("Europe/Rome"))
            // GeoNames' region code for Tuscany, "16", meant nothing to a person: only a US state is shown.
            #expect(!city.bodyText.contains("<dd>16</dd>") && !city.bodyText.contains("Region code"))
            let country = try await client.execute(uri: "/cities/countries/is", method: .get)
            #expect(country.status == .ok && country.bodyText.contains("Iceland") && country.bodyText.contains("Reykjavík"))
            #expect(try await client.execute(uri: "/cities/42", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/cities/countries/QQ", method: .get).status == .notFound)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func saysSoWhenNoCitiesAreImported(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let page = try await client.execute(uri: "/cities", method: .get)
            #expect(page.status == .ok && page.bodyText.contains("trove import cities"))
            let nearby = try await client.execute(uri: "/api/v1/cities/nearby?lat=43.77&lon=11.25", method: .get)
            #expect(nearby.status == .ok)
            #expect((try nearby.json()["cities"] as? [Any])?.isEmpty == true)
        }
    }
}
