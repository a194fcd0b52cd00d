import Foundation

/// A Wikipedia article about a city, as City Roulette's card shows it where one is known (the original app showed
/// its Wikipedia button only then).
public struct CityArticle: Sendable, Equatable {
    public let title: String
    /// The article's page, to open.
    public let url: String
    /// Its first paragraph, as Wikipedia summarises it.
    public let extract: String

    public init(title: String, url: String, extract: String) {
        self.title = title
        self.url = url
        self.extract = extract
    }

    /// Which of the articles near a city's point is about the city: the nearest whose title is the city's name,
    /// alone or followed by where it is ("Springfield, Illinois") or a qualifier ("Naples (city)"), compared without
    /// case or accents. A church or a square near the centre is not the city, so none of those is taken.
    public static func title(naming cityName: String, amongNearestFirst titles: [String]) -> String? {
        let name = SearchKey.normalize(cityName)
        guard !name.isEmpty else { return nil }
        return titles.first { title in
            let base = title.split(separator: ",", maxSplits: 1).first.map(String.init) ?? title
            let bare = base.range(of: " (").map { String(base[..<$0.lowerBound]) } ?? base
            return SearchKey.normalize(bare) == name
        }
    }
}

/// Wikipedia, or another encyclopedia, asked for the article about a city.
public protocol CityArticleSource: Sendable {
    /// The article about the city called `name` at the point, or nil when it has none.
    func article(about name: String, latitude: Double, longitude: Double) async throws(ArticlesUnavailable) -> CityArticle?
}

/// The encyclopedia did not answer (no network, a timeout, an error).
public struct ArticlesUnavailable: Error, Sendable, Equatable {
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }
}
