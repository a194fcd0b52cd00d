import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import TestSupport
import Testing

@Suite struct CitiesAPITests {
    func guest(_ client: some TestClientProtocol) async throws -> String {
        try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
    }

    func names(_ response: TestResponse) throws -> [String] {
        (try response.json()["cities"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test(arguments: DatabaseKind.allCases)
    func findsCitiesAroundAPointNearestFirstWithinTheRadius(kind: DatabaseKind) async throws {
        try await withCityApp(kind) { client, _ in
            let response = try await client.execute(uri: "/api/v1/cities/nearby?lat=43.77925&lon=11.24626", method: .get)
            #expect(response.status == .ok)
            let found = try names(response)
            #expect(found.first == "Florence")
            #expect(Set(found) == ["Florence", "Fiesole", "Sesto Fiorentino", "Scandicci", "Bagno a Ripoli"])
            #expect(!found.contains("Prato"))
            let cities = try #require(try response.json()["cities"] as? [[String: Any]])
            let distances = cities.compactMap { $0["distance_km"] as? Double }
            #expect(distances == distances.sorted() && distances.count == 5)
            #expect((cities.first?["wikipedia_url"] as? String)?.hasPrefix("https://en.wikipedia.org/") == true)
            #expect(cities.first?["country_name"] as? String == "Italy")
            // A wider radius reaches Prato; a limit cuts the list.
            #expect(
                try names(try await client.execute(uri: "/api/v1/cities/nearby?lat=43.77925&lon=11.24626&radius_km=25", method: .get))
                    .contains("Prato"))
            #expect(
                try names(try await client.execute(uri: "/api/v1/cities/nearby?lat=43.77925&lon=11.24626&limit=2", method: .get)).count == 2
            )
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func badQueriesAreClear400s(kind: DatabaseKind) async throws {
        try await withCityApp(kind) { client, _ in
            for uri in [
                "/api/v1/cities/nearby?lat=91&lon=0", "/api/v1/cities/nearby?lat=0&lon=181", "/api/v1/cities/nearby?lat=abc&lon=0",
                "/api/v1/cities/nearby?lon=0", "/api/v1/cities/nearby?lat=0&lon=0&radius_km=101",
                "/api/v1/cities/nearby?lat=0&lon=0&radius_km=-1",
                "/api/v1/cities/nearby?lat=0&lon=0&limit=501", "/api/v1/cities/nearby?lat=0&lon=0&limit=0", "/api/v1/cities/search?q=",
                "/api/v1/cities/search", "/api/v1/cities/search?q=flo&limit=501", "/api/v1/cities/abc", "/api/v1/cities/-3/weather",
            ] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(response.errorCode == "bad_request", "\(uri)")
            }
            for uri in ["/api/v1/cities/1", "/api/v1/cities/1/weather", "/api/v1/cities/countries/XX"] {
                #expect(try await client.execute(uri: uri, method: .get).status == .notFound, "\(uri)")
            }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func searchesByNameAlternateNameAndAccentFreeSpelling(kind: DatabaseKind) async throws {
        try await withCityApp(kind) { client, _ in
            let firenze = try await client.execute(uri: "/api/v1/cities/search?q=firen", method: .get)
            #expect(try names(firenze) == ["Florence"])
            // The name that matched, as written.
            #expect((try firenze.json()["cities"] as? [[String: Any]])?.first?["matched_name"] as? String == "Firenze")
            // A later alternate, and a later word of one.
            for (query, spelling) in [("%D1%84%D0%BB%D0%BE%D1%80", "Флоренция"), ("vieille", "Andorre-la-Vieille")] {
                let found = try await client.execute(uri: "/api/v1/cities/search?q=\(query)", method: .get)
                #expect((try found.json()["cities"] as? [[String: Any]])?.first?["matched_name"] as? String == spelling, "\(query)")
            }
            #expect(
                try names(try await client.execute(uri: "/api/v1/cities/search?q=julia%20de%20lo", method: .get)) == ["Sant Julià de Lòria"]
            )
            #expect(try names(try await client.execute(uri: "/api/v1/cities/search?q=REYKJAVIK", method: .get)) == ["Reykjavík"])
            let fi = try names(try await client.execute(uri: "/api/v1/cities/search?q=fi", method: .get))
            // Fiesole's own name before Florence's alternate "Firenze", then Sesto Fiorentino's later word.
            #expect(fi == ["Fiesole", "Florence", "Sesto Fiorentino"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func showsACityWithItsSunAndACountryWithItsLargestCities(kind: DatabaseKind) async throws {
        try await withCityApp(kind) { client, _ in
            let city = try await client.execute(uri: "/api/v1/cities/\(TestCities.florenceID)", method: .get).json()
            #expect(city["name"] as? String == "Florence" && city["timezone"] as? String == "Europe/Rome")
            let sun = try #require(city["sun"] as? [String: Any])
            #expect(sun["sunrise"] is String && sun["sunset"] is String && sun["polar"] is NSNull)
            #expect(city["collection"] is NSNull)
            let country = try await client.execute(uri: "/api/v1/cities/countries/it", method: .get).json()
            #expect(country["name"] as? String == "Italy" && country["capital"] as? String == "Rome" && country["city_count"] as? Int == 6)
            #expect(
                (country["largest_cities"] as? [[String: Any]])?.prefix(2).compactMap { $0["name"] as? String } == ["Florence", "Prato"])
            let box = try #require(country["bounding_box"] as? [String: Double])
            #expect(box["north"] == 43.88425 && box["west"] == 11.09699)
            let countries = try #require(
                try await client.execute(uri: "/api/v1/cities/countries", method: .get).json()["countries"] as? [[String: Any]])
            #expect(countries.compactMap { $0["iso"] as? String } == ["AD", "FJ", "IS", "IT"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func surpriseFindsCitiesRemembersThemAndTellsWhenItFindsNothing(kind: DatabaseKind) async throws {
        try await withCityApp(kind) { client, _ in
            let cookie = try await guest(client)
            // With a 100 km radius, every fixture country's box is within reach of its cities.
            let first = try await client.execute(uri: "/api/v1/cities/surprise?radius_km=100", method: .post, headers: .session(cookie))
            #expect(first.status == .ok)
            let answer = try first.json()
            #expect(answer["found"] as? Bool == true)
            let seen = Set((answer["cities"] as? [[String: Any]] ?? []).compactMap { $0["geonameid"] as? Int })
            #expect(!seen.isEmpty && (answer["country"] as? [String: Any])?["name"] is String)
            // The next surprise shows none of those again.
            let second = try await client.execute(uri: "/api/v1/cities/surprise?radius_km=100", method: .post, headers: .session(cookie))
                .json()
            let again = Set((second["cities"] as? [[String: Any]] ?? []).compactMap { $0["geonameid"] as? Int })
            #expect(again.isDisjoint(with: seen))
            #expect(
                try await client.execute(uri: "/api/v1/cities/surprise?radius_km=500", method: .post, headers: .session(cookie)).status
                    == .badRequest)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func mapPointsAreFourBytesPerCityAndRevalidate(kind: DatabaseKind) async throws {
        try await withCityApp(kind) { client, _ in
            let response = try await client.execute(uri: "/api/v1/cities/map-points", method: .get)
            #expect(response.status == .ok && response.headers[.contentType] == "application/octet-stream")
            #expect(response.body.readableBytes == 12 * 4)
            let etag = try #require(response.headers[.eTag])
            let again = try await client.execute(uri: "/api/v1/cities/map-points", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func basemapIsServedAsImportedAndRevalidates(kind: DatabaseKind) async throws {
        try await withCityApp(kind) { client, database in
            let missing = try await client.execute(uri: "/api/v1/cities/basemap", method: .get)
            #expect(missing.status == .notFound && String(buffer: missing.body).contains("basemap_not_imported"))
            let body = #"{"format":"trove-basemap-1","countries":[{"iso":"IT","rings":[[1,2,3,4]]}]}"#
            let repository = BasemapRepository(database: database.sql)
            let etag = try await repository.replace(with: body)
            let response = try await client.execute(uri: "/api/v1/cities/basemap", method: .get)
            #expect(response.status == .ok && String(buffer: response.body) == body)
            #expect(response.headers[.eTag] == etag && response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(
                try await client.execute(uri: "/api/v1/cities/basemap", method: .get, headers: [.ifNoneMatch: etag]).status == .notModified)
            // Another document, another tag: a browser holding the old one gets the new one.
            let newer = try await repository.replace(with: body.replacingOccurrences(of: "IT", with: "IS"))
            #expect(newer != etag)
            #expect(try await client.execute(uri: "/api/v1/cities/basemap", method: .get, headers: [.ifNoneMatch: etag]).status == .ok)
        }
    }
}
