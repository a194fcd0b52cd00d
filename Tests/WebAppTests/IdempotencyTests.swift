import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import TestSupport
import Testing

/// A state-changing request sent again with its Idempotency-Key changes nothing twice, on both databases.
@Suite struct IdempotencyTests {
    /// Sends `json` as it is: a request sent again is the same bytes (a dictionary's order differs per instance).
    func send(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, cookie: String, key: String?,
        _ json: String? = nil
    ) async throws -> TestResponse {
        var headers = HTTPFields.json(cookie: cookie)
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        return try await client.execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    func names(_ client: some TestClientProtocol, cookie: String) async throws -> [String] {
        let list = try await client.execute(uri: "/api/v1/yoga/students", method: .get, headers: .session(cookie)).json()
        return (list["students"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aReplayedCreationAnswersTheSameAndCreatesOnce(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            let student = #"{"name":"Asha","joined_on":"2026-01-05"}"#
            let first = try await send(client, .post, "/api/v1/yoga/students", cookie: cookie, key: "outbox-1", student)
            let again = try await send(client, .post, "/api/v1/yoga/students", cookie: cookie, key: "outbox-1", student)
            #expect(first.status == .created && again.status == .created)
            #expect(again.bodyText == first.bodyText)
            #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(first.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
            #expect(try await names(client, cookie: cookie) == ["Asha"])

            // The same key with another request is refused and writes nothing.
            let reused = try await send(client, .post, "/api/v1/yoga/students", cookie: cookie, key: "outbox-1", #"{"name":"Bea"}"#)
            #expect(reused.status == .unprocessableContent && reused.errorCode == "idempotency_key_reused")
            #expect(try await names(client, cookie: cookie) == ["Asha"])

            // Without a key, or with a new one, a request runs as usual.
            #expect(
                try await send(client, .post, "/api/v1/yoga/students", cookie: cookie, key: "outbox-2", #"{"name":"Bea"}"#).status
                    == .created)
            #expect(try await send(client, .post, "/api/v1/yoga/students", cookie: cookie, key: nil, #"{"name":"Cy"}"#).status == .created)
            #expect(try await names(client, cookie: cookie).sorted() == ["Asha", "Bea", "Cy"])

            // Keys belong to their profile: another visitor's "outbox-1" is a request of its own.
            let stranger = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            #expect(try await send(client, .post, "/api/v1/yoga/students", cookie: stranger, key: "outbox-1", student).status == .created)
            #expect(try await names(client, cookie: stranger) == ["Asha"])
            #expect(try await names(client, cookie: cookie).count == 3)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aReplayedFavouriteAndDeleteChangeNothingTwice(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, database in
            try await TestDeck.importAll(into: database)
            let cookie = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            let cards =
                try JSONSerialization.jsonObject(
                    with: Data(try await client.execute(uri: "/api/v1/strategies", method: .get).bodyText.utf8))
                as? [[String: Any]] ?? []
            let id = try #require(cards.first?["id"] as? Int)
            for _ in 0..<2 {
                #expect(
                    try await send(client, .put, "/api/v1/strategies/\(id)/favourite", cookie: cookie, key: "fav-\(id)").status
                        == .noContent)
            }
            let own = try await send(
                client, .post, "/api/v1/strategies/mine", cookie: cookie, key: "card-1", #"{"strategy":"Go for a walk"}"#)
            let ownAgain = try await send(
                client, .post, "/api/v1/strategies/mine", cookie: cookie, key: "card-1", #"{"strategy":"Go for a walk"}"#)
            #expect(own.status == .created && ownAgain.bodyText == own.bodyText)
            let mine = try await client.execute(uri: "/api/v1/strategies/mine", method: .get, headers: .session(cookie))
            #expect(mine.bodyText.components(separatedBy: "\"id\"").count - 1 == 1)
            let ownID = try #require(try own.json()["id"] as? Int)
            for _ in 0..<2 {
                #expect(
                    try await send(client, .delete, "/api/v1/strategies/mine/\(ownID)", cookie: cookie, key: "delete-\(ownID)").status
                        == .noContent)
            }
            // The favourite's key is kept with its answer; the same PUT again is answered without a second row.
            let favourites = try await client.execute(uri: "/api/v1/strategies/favourites", method: .get, headers: .session(cookie))
            #expect(favourites.bodyText.components(separatedBy: "\"id\"").count - 1 == 1)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func badKeysAreRefusedAndFailedRequestsMayBeSentAgain(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            for bad in ["", "has space", String(repeating: "k", count: 256), "naïve"] {
                let response = try await send(client, .post, "/api/v1/yoga/students", cookie: cookie, key: bad, #"{"name":"Asha"}"#)
                #expect(response.status == .badRequest, "\(bad)")
            }
            // A refused request keeps no answer: corrected and sent again with its key, it runs.
            let refused = try await send(client, .post, "/api/v1/yoga/students", cookie: cookie, key: "k1", #"{"name":""}"#)
            #expect(refused.status == .unprocessableContent && refused.errorCode == "validation_failed")
            #expect(
                try await send(client, .post, "/api/v1/yoga/students", cookie: cookie, key: "k1", #"{"name":"Asha"}"#).status == .created)
            #expect(try await names(client, cookie: cookie) == ["Asha"])
        }
    }
}
