import CityRoulette
import Foundation

/// The article found for each city, kept a day, and "none" kept too (a hamlet has no article tomorrow either), so
/// Wikipedia is asked about a city at most once a day whatever the number of visitors. A failure is not kept.
actor CityArticleCache {
    let source: any CityArticleSource
    let lifetime: TimeInterval
    /// Enough for every city people open in a day; past it, the oldest half goes.
    let capacity: Int
    private var kept: [Int: (article: CityArticle?, at: Date)] = [:]

    init(source: any CityArticleSource, lifetime: TimeInterval = 86_400, capacity: Int = 20_000) {
        self.source = source
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The article about `city`, or nil when it has none; throws when Wikipedia cannot be asked.
    func article(for city: City, now: Date = Date()) async throws(ArticlesUnavailable) -> (article: CityArticle?, cached: Bool) {
        if let entry = kept[city.geonameid], now.timeIntervalSince(entry.at) < lifetime { return (entry.article, true) }
        let article = try await source.article(about: city.name, latitude: city.latitude, longitude: city.longitude)
        if kept.count >= capacity {
            for (id, _) in kept.sorted(by: { $0.value.at < $1.value.at }).prefix(capacity / 2) { kept[id] = nil }
        }
        kept[city.geonameid] = (article, now)
        return (article, false)
    }
}
