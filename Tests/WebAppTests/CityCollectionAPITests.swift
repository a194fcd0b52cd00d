import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@Suite struct CityCollectionAPITests {
    func guest(_ client: some TestClientProtocol) async throws -> String {
        try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
    }

    func collection(_ client: some TestClientProtocol, _ cookie: String) async throws -> [[String: Any]] {
        try await client.execute(uri: "/api/v1/cities/collection", method: .get, headers: .session(cookie)).json()["cities"]
            as? [[String: Any]] ?? []
    }

    func items(_ ids: some Sequence<Int>, favourite: Bool) -> [[String: Any]] {
        ids.map { ["geonameid": $0, "favourite": favourite] }
    }

    /// The original app's example through the API: browse 40 plain + 10 favourites, unfavourite 3,
    /// delete 13 plain, save → 30 plain and 7 favourites; another profile sees none of it.
    @Test(arguments: DatabaseKind.allCases)
    func importThenSaveFollowTheOriginalSemantics(kind: DatabaseKind) async throws {
        try await withCityApp(kind, villages: 50) { client, _ in
            let cookie = try await guest(client)
            let villages = Array(900_001...900_050)
            let plain = try await client.execute(
                uri: "/api/v1/cities/collection/import", method: .post, headers: .json(cookie: cookie),
                body: body(["cities": items(villages.prefix(40), favourite: false)]))
            #expect(plain.status == .ok)
            #expect(try plain.json()["count"] as? Int == 40)
            let starred = try await client.execute(
                uri: "/api/v1/cities/collection/import", method: .post, headers: .json(cookie: cookie),
                body: body(["cities": items(villages.suffix(10), favourite: true)]))
            #expect(try starred.json()["count"] as? Int == 50)

            var shown = try await collection(client, cookie).map {
                ["geonameid": $0["geonameid"] as! Int, "favourite": $0["favourite"] as! Bool]
            }
            #expect(shown.count == 50)
            for index in shown.indices where [900_041, 900_042, 900_043].contains(shown[index]["geonameid"] as! Int) {
                shown[index]["favourite"] = false
            }
            shown.removeAll { (900_001...900_013).contains($0["geonameid"] as! Int) }
            let save = try await client.execute(
                uri: "/api/v1/cities/collection", method: .put, headers: .json(cookie: cookie), body: body(["cities": shown]))
            #expect(save.status == .ok)
            let saved = try await collection(client, cookie)
            #expect(saved.filter { $0["favourite"] as? Bool == false }.count == 30)
            #expect(saved.filter { $0["favourite"] as? Bool == true }.count == 7)
            #expect(saved.compactMap { $0["position"] as? Int } == Array(0..<37))

            let stranger = try await guest(client)
            #expect(try await collection(client, stranger).isEmpty)
            let theft = try await client.execute(
                uri: "/api/v1/cities/collection/900050/favourite", method: .delete, headers: .session(stranger))
            #expect(theft.status == .notFound)
            #expect(try await collection(client, cookie).first { $0["geonameid"] as? Int == 900_050 }?["favourite"] as? Bool == true)
        }
    }

    /// A browse scene opened on a laptop while a phone adds a city, deletes one and stars one: the laptop's Save
    /// (with the collection it was opened on as `base`) keeps the phone's changes and its own; without `base` the save
    /// is the plain one, and a bad `base` writes nothing.
    @Test(arguments: DatabaseKind.allCases)
    func aSaveFromAStaleSceneKeepsWhatThePhoneChanged(kind: DatabaseKind) async throws {
        try await withCityApp(kind, villages: 6) { client, _ in
            let cookie = try await guest(client)
            let ids = Array(900_001...900_006)
            _ = try await client.execute(
                uri: "/api/v1/cities/collection/import", method: .post, headers: .json(cookie: cookie),
                body: body(["cities": items(ids.prefix(4), favourite: false)]))
            let base = items(ids.prefix(4), favourite: false)
            // The phone: adds 5, deletes 3, stars 1.
            _ = try await client.execute(
                uri: "/api/v1/cities/collection/import", method: .post, headers: .json(cookie: cookie),
                body: body(["cities": items([900_005], favourite: false) + items([900_001], favourite: true)]))
            let phone = try await collection(client, cookie).filter { $0["geonameid"] as? Int != 900_003 }.map {
                ["geonameid": $0["geonameid"] as! Int, "favourite": $0["favourite"] as! Bool]
            }
            #expect(
                try await client.execute(
                    uri: "/api/v1/cities/collection", method: .put, headers: .json(cookie: cookie), body: body(["cities": phone])
                ).status == .ok)

            // The laptop, from the scene it opened before: deletes 2, stars 4, adds 6.
            let laptop =
                items([900_001, 900_003], favourite: false) + items([900_004], favourite: true) + items([900_006], favourite: false)
            let bad = try await client.execute(
                uri: "/api/v1/cities/collection", method: .put, headers: .json(cookie: cookie),
                body: body(["cities": laptop, "base": [["geonameid": "900001"]]]))
            #expect(bad.status == .badRequest || bad.status == .unprocessableContent)
            #expect(try await collection(client, cookie).map { $0["geonameid"] as? Int } == [900_001, 900_002, 900_004, 900_005])
            let save = try await client.execute(
                uri: "/api/v1/cities/collection", method: .put, headers: .json(cookie: cookie),
                body: body(["cities": laptop, "base": base]))
            #expect(save.status == .ok)
            let saved = try await collection(client, cookie).map { ($0["geonameid"] as! Int, $0["favourite"] as! Bool) }
            #expect(saved.map(\.0) == [900_001, 900_004, 900_006, 900_005])
            #expect(saved.map(\.1) == [true, true, false, false])

            // Without `base`, Save makes the collection exactly what was sent.
            _ = try await client.execute(
                uri: "/api/v1/cities/collection", method: .put, headers: .json(cookie: cookie),
                body: body(["cities": items([900_002], favourite: false)]))
            #expect(try await collection(client, cookie).map { $0["geonameid"] as? Int } == [900_002])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func importReplacesAStarWithoutDuplicatingTheCity(kind: DatabaseKind) async throws {
        try await withCityApp(kind) { client, _ in
            let cookie = try await guest(client)
            for favourite in [false, true] {
                _ = try await client.execute(
                    uri: "/api/v1/cities/collection/import", method: .post, headers: .json(cookie: cookie),
                    body: body(["cities": items([TestCities.florenceID], favourite: favourite)]))
            }
            let cities = try await collection(client, cookie)
            #expect(cities.count == 1 && cities.first?["favourite"] as? Bool == true && cities.first?["name"] as? String == "Florence")
            // A city's own API says it is collected; the star can be taken away and given back.
            let unstar = try await client.execute(
                uri: "/api/v1/cities/collection/\(TestCities.florenceID)/favourite", method: .delete, headers: .session(cookie))
            let unstarred = try unstar.json()
            #expect(unstar.status == .ok && unstarred["favourite"] as? Bool == false)
            let detail = try await client.execute(uri: "/api/v1/cities/\(TestCities.florenceID)", method: .get, headers: .session(cookie))
                .json()
            #expect((detail["collection"] as? [String: Any])?["favourite"] as? Bool == false)
            #expect(
                try await client.execute(
                    uri: "/api/v1/cities/collection/\(TestCities.pratoID)/favourite", method: .put,
                    headers: .session(cookie)
                ).errorCode == "not_in_collection")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func badBodiesAreRefusedAndWriteNothing(kind: DatabaseKind) async throws {
        try await withCityApp(kind) { client, _ in
            let cookie = try await guest(client)
            _ = try await client.execute(
                uri: "/api/v1/cities/collection/import", method: .post, headers: .json(cookie: cookie),
                body: body(["cities": items([TestCities.florenceID], favourite: true)]))
            let cases: [(HTTPRequest.Method, String, ByteBuffer, HTTPResponse.Status, String)] = [
                (
                    .post, "/api/v1/cities/collection/import", body(["cities": items([TestCities.pratoID, 12345], favourite: false)]),
                    .unprocessableContent, "unknown_city"
                ),
                (
                    .put, "/api/v1/cities/collection", body(["cities": items([12345], favourite: false)]), .unprocessableContent,
                    "unknown_city"
                ),
                (
                    .put, "/api/v1/cities/collection", body(["cities": items([TestCities.pratoID, TestCities.pratoID], favourite: false)]),
                    .unprocessableContent, "validation_failed"
                ),
                (
                    .post, "/api/v1/cities/collection/import", body(["cities": items(0..<501, favourite: false)]), .unprocessableContent,
                    "unknown_city"
                ),
                (
                    .post, "/api/v1/cities/collection/import", body(["cities": [["geonameid": "Florence"]]]), .unprocessableContent,
                    "validation_failed"
                ),
                (.put, "/api/v1/cities/collection", ByteBuffer(string: "{not json"), .badRequest, "malformed_json"),
            ]
            for (method, uri, payload, status, code) in cases {
                let response = try await client.execute(uri: uri, method: method, headers: .json(cookie: cookie), body: payload)
                #expect(response.status == status, "\(method) \(uri)")
                #expect(response.errorCode == code, "\(method) \(uri): \(response.bodyText)")
            }
            let after = try await collection(client, cookie)
            #expect(
                after.count == 1 && after.first?["geonameid"] as? Int == TestCities.florenceID && after.first?["favourite"] as? Bool == true
            )
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func exportsTheCollectionAsGeoJSONAndCSV(kind: DatabaseKind) async throws {
        try await withCityApp(kind) { client, _ in
            let cookie = try await guest(client)
            _ = try await client.execute(
                uri: "/api/v1/cities/collection/import", method: .post, headers: .json(cookie: cookie),
                body: body(["cities": items([TestCities.florenceID], favourite: true) + items([3039163], favourite: false)]))
            let geo = try await client.execute(uri: "/api/v1/cities/collection.geojson", method: .get, headers: .session(cookie))
            #expect(geo.headers[.contentType] == "application/geo+json")
            #expect(geo.headers[.contentDisposition]?.contains("attachment") == true)
            let features = try #require(try geo.json()["features"] as? [[String: Any]])
            #expect((features.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [11.24626, 43.77925])
            let csv = try await client.execute(uri: "/api/v1/cities/collection.csv", method: .get, headers: .session(cookie))
            let lines = csv.bodyText.split(separator: "\r\n")
            #expect(lines.count == 3)
            #expect(lines[1].hasPrefix("3176959,Florence,IT,Italy,43.77925,11.24626,349296,Europe/Rome,true"))
            #expect(lines[2].contains("Sant Julià de Lòria"))
            // The account export carries the collection too.
            let export = try await client.execute(uri: "/api/v1/account/export", method: .get, headers: .session(cookie)).json()
            #expect(((export["cities"] as? [String: Any])?["collection"] as? [[String: Any]])?.count == 2)
        }
    }
}
