import Foundation
import Synchronization
import Testing
import Weather

@Suite struct WeatherConditionTests {
    @Test func mapsWMOCodes() {
        #expect(WeatherCondition(wmoCode: 0) == .clear)
        #expect(WeatherCondition(wmoCode: 2) == .partlyCloudy)
        #expect(WeatherCondition(wmoCode: 3) == .cloudy)
        #expect(WeatherCondition(wmoCode: 48) == .fog)
        #expect(WeatherCondition(wmoCode: 55) == .drizzle)
        #expect(WeatherCondition(wmoCode: 63) == .rain)
        #expect(WeatherCondition(wmoCode: 81) == .rain)
        #expect(WeatherCondition(wmoCode: 75) == .snow)
        #expect(WeatherCondition(wmoCode: 86) == .snow)
        #expect(WeatherCondition(wmoCode: 99) == .thunderstorm)
        #expect(WeatherCondition(wmoCode: 42) == .unknown)
        #expect(WeatherCondition.wmoDescription(3) == "Overcast")
    }

    @Test func mapsOpenWeatherMapIDs() {
        #expect(WeatherCondition(openWeatherMapID: 211) == .thunderstorm)
        #expect(WeatherCondition(openWeatherMapID: 301) == .drizzle)
        #expect(WeatherCondition(openWeatherMapID: 502) == .rain)
        #expect(WeatherCondition(openWeatherMapID: 601) == .snow)
        #expect(WeatherCondition(openWeatherMapID: 741) == .fog)
        #expect(WeatherCondition(openWeatherMapID: 800) == .clear)
        #expect(WeatherCondition(openWeatherMapID: 802) == .partlyCloudy)
        #expect(WeatherCondition(openWeatherMapID: 804) == .cloudy)
        #expect(WeatherCondition(openWeatherMapID: 900) == .unknown)
    }
}

/// A provider that counts its calls, answers after a pause, and fails when told to.
final class CountingProvider: WeatherProvider {
    let calls = Mutex(0)
    let failing = Mutex(false)

    func current(latitude: Double, longitude: Double) async throws(WeatherUnavailable) -> CurrentWeather {
        calls.withLock { $0 += 1 }
        try? await Task.sleep(for: .milliseconds(50))
        if failing.withLock({ $0 }) { throw WeatherUnavailable(reason: "down") }
        return CurrentWeather(
            condition: .clear, description: "Clear sky", isDay: true, temperatureCelsius: latitude,
            observedAt: Date(timeIntervalSince1970: 0), provider: "test")
    }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    let now = Mutex(Date(timeIntervalSince1970: 1_000_000))
    func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
}

@Suite struct WeatherCacheTests {
    @Test func remembersAnswersForTenMinutesPerPlace() async throws {
        let provider = CountingProvider()
        let clock = TestClock()
        let cache = WeatherCache(provider: provider, now: { clock.now.withLock { $0 } })
        let first = try await cache.current(latitude: 43.77925, longitude: 11.24626)
        #expect(!first.cached && first.weather.temperatureCelsius == 43.77925)
        // The same place (to about a kilometre) within ten minutes: no call.
        clock.advance(599)
        #expect(try await cache.current(latitude: 43.779, longitude: 11.246).cached)
        #expect(provider.calls.withLock { $0 } == 1)
        // Another place, and the same place after ten minutes: calls.
        _ = try await cache.current(latitude: 40, longitude: 11)
        clock.advance(2)
        #expect(try await cache.current(latitude: 43.77925, longitude: 11.24626).cached == false)
        #expect(provider.calls.withLock { $0 } == 3)
    }

    @Test func refreshAsksAgainAndConcurrentRequestsShareOneCall() async throws {
        let provider = CountingProvider()
        let cache = WeatherCache(provider: provider)
        async let a = cache.current(latitude: 1, longitude: 1)
        async let b = cache.current(latitude: 1, longitude: 1)
        async let c = cache.current(latitude: 1, longitude: 1)
        _ = try await (a, b, c)
        #expect(provider.calls.withLock { $0 } == 1)
        #expect(try await cache.current(latitude: 1, longitude: 1, refresh: true).cached == false)
        #expect(provider.calls.withLock { $0 } == 2)
    }

    @Test func failuresAreNotRemembered() async throws {
        let provider = CountingProvider()
        let cache = WeatherCache(provider: provider)
        provider.failing.withLock { $0 = true }
        await #expect(throws: WeatherUnavailable.self) { try await cache.current(latitude: 5, longitude: 5) }
        provider.failing.withLock { $0 = false }
        #expect(try await cache.current(latitude: 5, longitude: 5).cached == false)
        #expect(provider.calls.withLock { $0 } == 2)
    }

    @Test func aProviderFailingAtSeveralPlacesIsLeftAloneForAPause() async throws {
        let provider = CountingProvider()
        let clock = TestClock()
        let cache = WeatherCache(provider: provider, breakerPause: 30, now: { clock.now.withLock { $0 } })
        provider.failing.withLock { $0 = true }
        // One place failing again and again: always asked (it may be that place only).
        for _ in 0..<4 { await #expect(throws: WeatherUnavailable.self) { try await cache.current(latitude: 1, longitude: 1) } }
        #expect(provider.calls.withLock { $0 } == 4)
        // Two more places within the minute: three places, the breaker opens.
        for place in [2.0, 3.0] {
            await #expect(throws: WeatherUnavailable.self) { try await cache.current(latitude: place, longitude: 1) }
        }
        do {
            _ = try await cache.current(latitude: 4, longitude: 1)
            Issue.record("the open breaker let a call out")
        } catch {
            #expect(error.retryAfter == 30)
        }
        #expect(provider.calls.withLock { $0 } == 6)
        // After the pause one trial goes out; it fails, so the breaker opens again at once.
        clock.advance(30)
        await #expect(throws: WeatherUnavailable.self) { try await cache.current(latitude: 4, longitude: 1) }
        #expect(provider.calls.withLock { $0 } == 7)
        await #expect(throws: WeatherUnavailable.self) { try await cache.current(latitude: 5, longitude: 1) }
        #expect(provider.calls.withLock { $0 } == 7)
        // The provider is back: after the pause the trial succeeds and everything is asked again.
        provider.failing.withLock { $0 = false }
        clock.advance(30)
        #expect(try await cache.current(latitude: 5, longitude: 1).cached == false)
        #expect(try await cache.current(latitude: 6, longitude: 1).cached == false)
        #expect(provider.calls.withLock { $0 } == 9)
    }

    @Test func aPauseOfZeroNeverHoldsBack() async throws {
        let provider = CountingProvider()
        let cache = WeatherCache(provider: provider, breakerPause: 0)
        provider.failing.withLock { $0 = true }
        for place in 0..<5 {
            await #expect(throws: WeatherUnavailable.self) { try await cache.current(latitude: Double(place), longitude: 1) }
        }
        #expect(provider.calls.withLock { $0 } == 5)
    }
}
