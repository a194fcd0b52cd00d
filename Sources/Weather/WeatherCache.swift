import Foundation

/// Remembers each place's weather for a while (10 minutes by default) so a page of 30 cities, reloaded,
/// asks the provider nothing, and concurrent requests for one place share a single call.
/// Places are keyed by coordinates rounded to about a kilometre. When the provider keeps failing, a circuit
/// breaker answers "unavailable" at once for a pause instead of letting every row wait for its timeout.
public actor WeatherCache {
    public struct Answer: Sendable {
        public let weather: CurrentWeather
        public let cached: Bool
    }

    private struct Key: Hashable, Sendable {
        let latitude: Int
        let longitude: Int
        init(latitude: Double, longitude: Double) {
            self.latitude = Int((latitude * 100).rounded())
            self.longitude = Int((longitude * 100).rounded())
        }
    }

    private struct Entry {
        let weather: CurrentWeather
        let fetchedAt: Date
    }

    private let provider: any WeatherProvider
    private let lifetime: TimeInterval
    private let capacity: Int
    private let now: @Sendable () -> Date
    private var entries: [Key: Entry] = [:]
    private var inFlight: [Key: Task<CurrentWeather, any Error>] = [:]
    private var breaker = CircuitBreaker<Key>()

    public init(
        provider: any WeatherProvider, lifetime: TimeInterval = 600, capacity: Int = 20_000, breakerPause: TimeInterval = 30,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.provider = provider
        self.lifetime = lifetime
        self.capacity = capacity
        self.now = now
        breaker.pause = breakerPause
    }

    /// The weather at a place; `refresh` skips a remembered answer (a person pulled to refresh).
    public func current(latitude: Double, longitude: Double, refresh: Bool = false) async throws(WeatherUnavailable) -> Answer {
        let key = Key(latitude: latitude, longitude: longitude)
        if !refresh, let entry = entries[key], now().timeIntervalSince(entry.fetchedAt) < lifetime {
            return Answer(weather: entry.weather, cached: true)
        }
        let task: Task<CurrentWeather, any Error>
        let asking = inFlight[key] == nil
        if let running = inFlight[key] {
            task = running
        } else {
            if let wait = breaker.wait(at: now()) {
                throw WeatherUnavailable(
                    reason: "the provider failed repeatedly; asking again in \(Int(wait.rounded(.up))) s", retryAfter: wait)
            }
            let provider = provider
            task = Task { try await provider.current(latitude: latitude, longitude: longitude) }
            inFlight[key] = task
        }
        do {
            let weather = try await task.value
            inFlight[key] = nil
            if asking { breaker.recordSuccess() }
            store(weather, for: key)
            return Answer(weather: weather, cached: false)
        } catch {
            inFlight[key] = nil
            if asking { breaker.recordFailure(at: now(), place: key) }
            throw error as? WeatherUnavailable ?? WeatherUnavailable(reason: String(describing: error))
        }
    }

    private func store(_ weather: CurrentWeather, for key: Key) {
        let fetchedAt = now()
        if entries.count >= capacity {
            entries = entries.filter { fetchedAt.timeIntervalSince($0.value.fetchedAt) < lifetime }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        }
        entries[key] = Entry(weather: weather, fetchedAt: fetchedAt)
    }
}
