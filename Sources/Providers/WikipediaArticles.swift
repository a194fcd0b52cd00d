import CityRoulette
import Foundation

/// Wikipedia (no key): the article about a city, found among the articles near its point (`list=geosearch`), then
/// its summary (the REST API's `page/summary`). Two requests, each with the fetcher's deadline.
public struct WikipediaArticles: CityArticleSource {
    public static let defaultBaseURL = URL(string: "https://en.wikipedia.org")!
    let baseURL: URL
    let fetcher: JSONFetcher

    public init(baseURL: URL = defaultBaseURL, fetcher: JSONFetcher) {
        self.baseURL = baseURL
        self.fetcher = fetcher
    }

    struct Nearby: Decodable, Sendable {
        struct Query: Decodable, Sendable {
            struct Page: Decodable, Sendable {
                let title: String
                let dist: Double?
            }

            let geosearch: [Page]
        }

        let query: Query?
    }

    struct Summary: Decodable, Sendable {
        struct URLs: Decodable, Sendable {
            struct Page: Decodable, Sendable { let page: String }
            let desktop: Page?
            let mobile: Page?
        }

        let title: String
        let extract: String?
        let content_urls: URLs?
        let type: String?
    }

    public func article(about name: String, latitude: Double, longitude: Double) async throws(ArticlesUnavailable) -> CityArticle? {
        var nearby = URLComponents(url: baseURL.appendingPathComponent("w/api.php"), resolvingAgainstBaseURL: false)!
        nearby.queryItems = [
            URLQueryItem(name: "action", value: "query"), URLQueryItem(name: "list", value: "geosearch"),
            URLQueryItem(name: "gscoord", value: "\(latitude)|\(longitude)"), URLQueryItem(name: "gsradius", value: "10000"),
            URLQueryItem(name: "gslimit", value: "20"), URLQueryItem(name: "format", value: "json"),
        ]
        do {
            let pages = try await fetcher.get(Nearby.self, from: nearby.url!).query?.geosearch ?? []
            let nearestFirst = pages.sorted { ($0.dist ?? .infinity) < ($1.dist ?? .infinity) }.map(\.title)
            guard let title = CityArticle.title(naming: name, amongNearestFirst: nearestFirst) else { return nil }
            let path = "api/rest_v1/page/summary/" + title.replacingOccurrences(of: " ", with: "_")
            let summary = try await fetcher.get(Summary.self, from: baseURL.appendingPathComponent(path))
            guard summary.type != "disambiguation", let page = summary.content_urls?.mobile?.page ?? summary.content_urls?.desktop?.page
            else { return nil }
            return CityArticle(title: summary.title, url: page, extract: summary.extract ?? "")
        } catch {
            throw ArticlesUnavailable(reason: "Wikipedia: \(error)")
        }
    }
}
