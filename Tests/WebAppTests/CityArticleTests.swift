import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import TestSupport
import Testing

@testable import WebApp

/// A city's Wikipedia article, from a fake Wikipedia answering in the real shapes (PROVIDERS.md): Florence's point
/// has a cathedral nearer than the city's own article, Prato's has only a square, and Fiesole's fails.
@Suite struct CityArticleTests {
    final class Asked: Sendable {
        let count = Mutex(0)
    }

    func withFakeWikipedia(_ body: @Sendable @escaping (URL, Asked) async throws -> Void) async throws {
        let asked = Asked()
        let router = Router()
        router.get("/w/api.php") { request, _ in
            asked.count.withLock { $0 += 1 }
            let point = request.uri.queryParameters.get("gscoord") ?? ""
            guard request.uri.queryParameters.get("list") == "geosearch" else { return Response(status: .badRequest) }
            if point.hasPrefix("43.8067") { return Response(status: .internalServerError) }
            let titles =
                point.hasPrefix("43.779")
                ? [("Florence Cathedral", 40.5), ("Florence", 310.2), ("Piazza della Signoria", 420.0)]
                : [("Piazza del Duomo (Prato)", 120.0)]
            let pages = titles.enumerated().map {
                #"{"pageid":\#($0.offset + 1),"ns":0,"title":"\#($0.element.0)","lat":43.77,"lon":11.25,"dist":\#($0.element.1),"primary":""}"#
            }
            let answer = #"{"batchcomplete":"","query":{"geosearch":[\#(pages.joined(separator: ","))]}}"#
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: answer)))
        }
        router.get("/api/rest_v1/page/summary/{title}") { _, context in
            let title = try context.parameters.require("title")
            guard title == "Florence" else { return Response(status: .notFound) }
            let answer = #"""
                {"type":"standard","title":"Florence","displaytitle":"Florence","extract":"Florence is the capital city of the Italian region of Tuscany.","content_urls":{"desktop":{"page":"https://en.wikipedia.org/wiki/Florence"},"mobile":{"page":"https://en.m.wikipedia.org/wiki/Florence"}}}
                """#
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: answer)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(URL(string: "http://127.0.0.1:\(client.port!)")!, asked) }
    }

    @Test(arguments: DatabaseKind.allCases)
    func theArticleIsTheCitysOwnOrNone(kind: DatabaseKind) async throws {
        try await withFakeWikipedia { fake, asked in
            try await withCityApp(kind, wikipediaURL: fake) { client, _ in
                let florence = try await client.execute(uri: "/api/v1/cities/\(TestCities.florenceID)/article", method: .get)
                #expect(florence.status == .ok)
                let article = try florence.json()
                #expect(
                    article["title"] as? String == "Florence" && article["url"] as? String == "https://en.m.wikipedia.org/wiki/Florence")
                #expect((article["extract"] as? String)?.hasPrefix("Florence is the capital") == true)
                // Asked once a day: the second visitor's answer is kept.
                let before = asked.count.withLock { $0 }
                #expect(try await client.execute(uri: "/api/v1/cities/\(TestCities.florenceID)/article", method: .get).status == .ok)
                #expect(asked.count.withLock { $0 } == before)

                // A square is not the city: no article, and the page offers a search.
                let prato = try await client.execute(uri: "/api/v1/cities/\(TestCities.pratoID)/article", method: .get)
                #expect(prato.status == .notFound && prato.errorCode == "no_article")
                // Wikipedia failing is a 503 the page can say, not a 500.
                let fiesole = try await client.execute(uri: "/api/v1/cities/3177090/article", method: .get)
                #expect(fiesole.status == .serviceUnavailable && fiesole.errorCode == "wikipedia_unavailable")
            }
        }
    }
}
