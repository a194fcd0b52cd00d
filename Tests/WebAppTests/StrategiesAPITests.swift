import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@Suite struct StrategiesAPITests {
    /// A test app whose database holds the test deck.
    func withDeck<R: Sendable>(_ kind: DatabaseKind, _ body: @Sendable @escaping (any TestClientProtocol) async throws -> R) async throws
        -> R
    {
        try await withTestApp(kind) { client, database in
            try await TestDeck.importAll(into: database)
            return try await body(client)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func cardsKeepTheOriginalAPIShape(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let response = try await client.execute(uri: "/api/v1/strategies/random", method: .get)
            #expect(response.status == .ok)
            let card = try response.json()
            #expect(Set(card.keys) == ["id", "edition", "cardnumber", "strategy"])
            let list = try await client.execute(uri: "/api/v1/strategies", method: .get)
            let cards = try JSONSerialization.jsonObject(with: Data(list.bodyText.utf8)) as? [[String: Any]] ?? []
            #expect(cards.count == 9)
            let order = cards.map { [$0["edition"] as? Int ?? 0, $0["cardnumber"] as? Int ?? 0] }
            #expect(order == order.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func filtersByEditionAndSearchesIgnoringCaseAndAccents(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let edition = try await client.execute(uri: "/api/v1/strategies?edition=2", method: .get)
            #expect(edition.bodyText.components(separatedBy: "\"edition\":2").count - 1 == 3)
            let search = try await client.execute(uri: "/api/v1/strategies?q=EMPHASIZE", method: .get)
            #expect(search.bodyText.contains("Émphasize the flaws"))
            #expect(search.bodyText.components(separatedBy: "\"id\"").count - 1 == 1)
            for _ in 0..<20 {
                let random = try await client.execute(uri: "/api/v1/strategies/random?edition=3", method: .get)
                #expect(try random.json()["edition"] as? Int == 3)
            }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func badAndUnknownIdsAndParameters(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let cases: [(String, HTTPResponse.Status, String)] = [
                ("/api/v1/strategies/999999", .notFound, "not_found"),
                ("/api/v1/strategies/abc", .badRequest, "bad_request"),
                ("/api/v1/strategies/-1", .badRequest, "bad_request"),
                ("/api/v1/strategies/99999999999999999999999", .badRequest, "bad_request"),
                ("/api/v1/strategies?edition=two", .badRequest, "bad_request"),
                ("/api/v1/strategies/random?source=everything", .badRequest, "bad_request"),
                ("/api/v1/strategies/random?edition=9", .notFound, "edition_not_found"),
                ("/api/v1/strategies?edition=9", .notFound, "edition_not_found"),
                ("/api/v1/strategies/shuffle?edition=9", .notFound, "edition_not_found"),
                ("/api/v1/strategies/today?tz=Mars/Olympus", .badRequest, "bad_request"),
                ("/api/oblique/id/999999", .notFound, "not_found"),
                ("/api/oblique/edition/9/all", .notFound, "not_found"),
                ("/api/oblique/edition/1/cardnumber/99", .notFound, "not_found"),
            ]
            for (uri, status, code) in cases {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == status, "\(uri)")
                #expect(response.errorCode == code, "\(uri): \(response.bodyText)")
            }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func editionsAreListedWithTheirYearsAndCounts(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let response = try await client.execute(uri: "/api/v1/strategies/editions", method: .get)
            #expect(response.status == .ok)
            let sections = try JSONSerialization.jsonObject(with: Data(response.bodyText.utf8)) as? [[String: Any]] ?? []
            #expect(
                sections.map { $0["label"] as? String ?? "" }
                    == ["1st edition (1975)", "2nd edition (1978)", "3rd edition (1979)", "4th edition (1996)", "Extra"])
            let all =
                try JSONSerialization.jsonObject(
                    with: Data(try await client.execute(uri: "/api/v1/strategies", method: .get).bodyText.utf8))
                as? [[String: Any]] ?? []
            for section in sections {
                let edition = section["edition"] as? Int
                #expect(section["count"] as? Int == all.filter { $0["edition"] as? Int == edition }.count, "\(section)")
            }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func theMonksDrawKeepsItsShapeAndRecordsNothing(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let cookie = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            var editions: Set<Int> = []
            for _ in 0..<30 {
                let draw = try await client.execute(uri: "/api/oblique/draw", method: .get, headers: .session(cookie))
                #expect(draw.status == .ok)
                let card = try draw.json()
                #expect(Set(card.keys) == ["id", "edition", "cardnumber", "strategy"])
                editions.insert(card["edition"] as? Int ?? 0)
            }
            #expect(editions.count > 1, "the draw spans the editions")
            let history = try await client.execute(uri: "/api/v1/strategies/history", method: .get, headers: .session(cookie))
            #expect(history.bodyText == "[]")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aGuestSigningInBringsItsFavouritesAndDrawsAndIsToldFirst(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let account = try await signUp(client, username: "eno")
            let cards =
                try JSONSerialization.jsonObject(
                    with: Data(try await client.execute(uri: "/api/v1/strategies", method: .get).bodyText.utf8))
                as? [[String: Any]] ?? []
            let ids = cards.compactMap { $0["id"] as? Int }
            _ = try await client.execute(uri: "/api/v1/strategies/\(ids[0])/favourite", method: .put, headers: .session(account))
            _ = try await client.execute(uri: "/api/v1/account/logout", method: .post, headers: .session(account))

            let guest = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            for id in ids[0...1] {
                _ = try await client.execute(uri: "/api/v1/strategies/\(id)/favourite", method: .put, headers: .session(guest))
            }
            _ = try await client.execute(uri: "/api/v1/strategies/random", method: .post, headers: .session(guest))
            let work = try await client.execute(uri: "/api/v1/account/guest-work", method: .get, headers: .session(guest))
            #expect(try work.json()["summary"] as? String == "2 favourite cards and 1 drawn card")

            let login = try await client.execute(
                uri: "/api/v1/account/login", method: .post, headers: .json(cookie: guest),
                body: body(["username": "eno", "password": "correct horse"]))
            #expect(login.status == .ok)
            let signedIn = try #require(login.sessionCookie)
            let favourites = try await client.execute(uri: "/api/v1/strategies/favourites", method: .get, headers: .session(signedIn))
            let favouriteIDs = (try JSONSerialization.jsonObject(with: Data(favourites.bodyText.utf8)) as? [[String: Any]] ?? []).compactMap
            { $0["id"] as? Int }
            #expect(Set(favouriteIDs) == Set(ids[0...1]) && favouriteIDs.count == 2, "united, each once")
            let history = try await client.execute(uri: "/api/v1/strategies/history", method: .get, headers: .session(signedIn))
            #expect((try JSONSerialization.jsonObject(with: Data(history.bodyText.utf8)) as? [Any])?.count == 1)
            let nothingLeft = try await client.execute(uri: "/api/v1/account/guest-work", method: .get, headers: .session(signedIn))
            #expect(try nothingLeft.json()["summary"] as? String == "")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func theCardOfTheDayIsTheSameForEveryone(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let a = try await client.execute(uri: "/api/v1/strategies/today?tz=Europe/Paris", method: .get)
            let b = try await client.execute(uri: "/api/v1/strategies/today?tz=Europe/Paris", method: .get)
            #expect(a.status == .ok)
            #expect(a.bodyText == b.bodyText)
            #expect((1...4).contains(try a.json()["edition"] as? Int ?? 0))
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func favouritesBelongToTheProfileAndFeedPopular(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let me = try await client.execute(uri: "/api/v1/account/me", method: .get)
            let cookie = try #require(me.sessionCookie)
            let card = try await client.execute(uri: "/api/v1/strategies/random", method: .get, headers: .session(cookie))
            let id = try #require(try card.json()["id"] as? Int)
            for _ in 0..<2 {
                let put = try await client.execute(uri: "/api/v1/strategies/\(id)/favourite", method: .put, headers: .session(cookie))
                #expect(put.status == .noContent)
            }
            let favourites = try await client.execute(uri: "/api/v1/strategies/favourites", method: .get, headers: .session(cookie))
            #expect(favourites.bodyText.contains("\"id\":\(id)"))
            let popular = try await client.execute(uri: "/api/v1/strategies/popular", method: .get)
            #expect(popular.bodyText.contains("\"favourites\":1"))
            #expect(!popular.bodyText.contains(cookie))
            // Another visitor sees none of it.
            let other = try await client.execute(uri: "/api/v1/strategies/favourites", method: .get)
            #expect(other.bodyText == "[]")
            let missing = try await client.execute(uri: "/api/v1/strategies/424242/favourite", method: .put, headers: .session(cookie))
            #expect(missing.status == .notFound)
            let remove = try await client.execute(uri: "/api/v1/strategies/\(id)/favourite", method: .delete, headers: .session(cookie))
            #expect(remove.status == .noContent)
            let after = try await client.execute(uri: "/api/v1/strategies/favourites", method: .get, headers: .session(cookie))
            #expect(after.bodyText == "[]")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func ownCardsAreValidatedPrivateAndDrawable(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let cookie = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            let created = try await client.execute(
                uri: "/api/v1/strategies/mine", method: .post, headers: .json(cookie: cookie),
                body: body(["strategy": "  Go for a walk  "]))
            #expect(created.status == .created)
            let id = try #require(try created.json()["id"] as? Int)
            #expect(try created.json()["strategy"] as? String == "Go for a walk")
            #expect(try created.json()["edition"] as? Int == 0)

            for bad in ["", "   ", String(repeating: "x", count: 281)] {
                let response = try await client.execute(
                    uri: "/api/v1/strategies/mine", method: .post, headers: .json(cookie: cookie),
                    body: body(["strategy": bad]))
                #expect(response.status == .unprocessableContent)
            }
            let wrongShape = try await client.execute(
                uri: "/api/v1/strategies/mine", method: .post, headers: .json(cookie: cookie),
                body: body(["text": "nope"]))
            #expect(wrongShape.status == .unprocessableContent)
            #expect(
                try await client.execute(uri: "/api/v1/strategies/mine", method: .get, headers: .session(cookie)).bodyText.components(
                    separatedBy: "\"id\""
                ).count == 2)

            for _ in 0..<5 {
                let drawn = try await client.execute(uri: "/api/v1/strategies/random?source=mine", method: .get, headers: .session(cookie))
                #expect(try drawn.json()["id"] as? Int == id)
            }
            // Someone else cannot see, change or delete it: 404, never 403.
            let stranger = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            #expect(
                try await client.execute(uri: "/api/v1/strategies/\(id)", method: .get, headers: .session(stranger)).status == .notFound)
            let patch = try await client.execute(
                uri: "/api/v1/strategies/mine/\(id)", method: .patch, headers: .json(cookie: stranger),
                body: body(["strategy": "Hijacked"]))
            #expect(patch.status == .notFound)
            #expect(
                try await client.execute(uri: "/api/v1/strategies/mine/\(id)", method: .delete, headers: .session(stranger)).status
                    == .notFound)
            #expect(
                try await client.execute(uri: "/api/v1/strategies/\(id)/favourite", method: .put, headers: .session(stranger)).status
                    == .notFound)
            let random = try await client.execute(uri: "/api/v1/strategies/random?source=mine", method: .get, headers: .session(stranger))
            #expect(random.errorCode == "empty_deck")

            let update = try await client.execute(
                uri: "/api/v1/strategies/mine/\(id)", method: .patch, headers: .json(cookie: cookie),
                body: body(["strategy": "Go for a run"]))
            #expect(try update.json()["strategy"] as? String == "Go for a run")
            #expect(
                try await client.execute(uri: "/api/v1/strategies/mine/\(id)", method: .delete, headers: .session(cookie)).status
                    == .noContent)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func theShuffleDealsEveryCardOnceThenStartsOver(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let cookie = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            var seen: Set<Int> = []
            for expected in stride(from: 2, through: 0, by: -1) {
                let draw = try await client.execute(
                    uri: "/api/v1/strategies/shuffle/draw?edition=1", method: .post, headers: .session(cookie))
                let json = try draw.json()
                let card = try #require(json["card"] as? [String: Any])
                #expect(seen.insert(card["id"] as? Int ?? 0).inserted)
                #expect(json["remaining"] as? Int == expected)
                #expect(json["reshuffled"] as? Bool == false)
            }
            let state = try await client.execute(uri: "/api/v1/strategies/shuffle?edition=1", method: .get, headers: .session(cookie))
            #expect(try state.json()["remaining"] as? Int == 0)
            let next = try await client.execute(uri: "/api/v1/strategies/shuffle/draw?edition=1", method: .post, headers: .session(cookie))
            #expect(try next.json()["reshuffled"] as? Bool == true)
            #expect(
                try await client.execute(uri: "/api/v1/strategies/shuffle", method: .delete, headers: .session(cookie)).status == .noContent
            )
            let reset = try await client.execute(uri: "/api/v1/strategies/shuffle?edition=1", method: .get, headers: .session(cookie))
            #expect(try reset.json()["remaining"] as? Int == 3)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aDrawMadeOfflineJoinsTheHistoryAtItsTime(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let cookie = try await signUp(client, username: "eno")
            let card = try await client.execute(uri: "/api/v1/strategies/random", method: .get, headers: .session(cookie))
            let cardID = try #require(try card.json()["id"] as? Int)
            let drawnAt = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3600))
            let recorded = try await client.execute(
                uri: "/api/v1/strategies/history", method: .post, headers: .json(cookie: cookie),
                body: body(["card_id": cardID, "drawn_at": drawnAt]))
            #expect(recorded.status == .created)
            let history = try await client.execute(uri: "/api/v1/strategies/history", method: .get, headers: .session(cookie))
            let entries = try JSONSerialization.jsonObject(with: Data(history.bodyText.utf8)) as? [[String: Any]] ?? []
            #expect(entries.count == 1 && (entries.first?["card"] as? [String: Any])?["id"] as? Int == cardID)
            // A card nobody can see, a time in the future or weeks ago, a missing field: refused, nothing written.
            let refused: [([String: Any], HTTPResponse.Status)] = [
                (["card_id": 999_999, "drawn_at": drawnAt], .notFound),
                (
                    ["card_id": cardID, "drawn_at": ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400))],
                    .unprocessableContent
                ),
                (["card_id": cardID, "drawn_at": "2020-01-01T00:00:00Z"], .unprocessableContent),
                (["card_id": cardID], .unprocessableContent),
            ]
            for (bad, status) in refused {
                let answer = try await client.execute(
                    uri: "/api/v1/strategies/history", method: .post, headers: .json(cookie: cookie), body: body(bad))
                #expect(answer.status == status, "\(bad)")
            }
            let after = try await client.execute(uri: "/api/v1/strategies/history", method: .get, headers: .session(cookie))
            #expect((try JSONSerialization.jsonObject(with: Data(after.bodyText.utf8)) as? [Any])?.count == 1)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func drawsAreRememberedWithNotesAndExported(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let cookie = try await signUp(client, username: "eno")
            // Drawing by GET changes nothing, so no other site can write to a visitor's history.
            for _ in 0..<2 {
                #expect(try await client.execute(uri: "/api/v1/strategies/random", method: .get, headers: .session(cookie)).status == .ok)
            }
            let untouched = try await client.execute(uri: "/api/v1/strategies/history", method: .get, headers: .session(cookie))
            #expect(untouched.bodyText == "[]")
            for _ in 0..<3 {
                let drawn = try await client.execute(uri: "/api/v1/strategies/random?edition=2", method: .post, headers: .session(cookie))
                #expect(try drawn.json()["edition"] as? Int == 2)
            }
            let history = try await client.execute(uri: "/api/v1/strategies/history", method: .get, headers: .session(cookie))
            let entries = try JSONSerialization.jsonObject(with: Data(history.bodyText.utf8)) as? [[String: Any]] ?? []
            #expect(entries.count == 3)
            let entryID = try #require(entries.first?["id"] as? Int)
            let noted = try await client.execute(
                uri: "/api/v1/strategies/history/\(entryID)", method: .patch, headers: .json(cookie: cookie),
                body: body(["note": "=cmd|' /C calc'!A0"]))
            #expect(noted.status == .ok)
            let tooLong = try await client.execute(
                uri: "/api/v1/strategies/history/\(entryID)", method: .patch, headers: .json(cookie: cookie),
                body: body(["note": String(repeating: "n", count: 501)]))
            #expect(tooLong.status == .unprocessableContent)
            let csv = try await client.execute(uri: "/api/v1/strategies/history.csv", method: .get, headers: .session(cookie))
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(csv.bodyText.contains("'=cmd"), "formula-looking notes are defused in CSV")
            #expect(csv.bodyText.split(separator: "\r\n").count == 4)
            let export = try await client.execute(uri: "/api/v1/account/export", method: .get, headers: .session(cookie))
            let strategies = try #require(try export.json()["strategies"] as? [String: Any])
            #expect((strategies["history"] as? [Any])?.count == 3)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aNoteChangedOnAnotherDeviceMeanwhileIsKeptBesideTheOneSent(kind: DatabaseKind) async throws {
        try await withDeck(kind) { client in
            let cookie = try await signUp(client, username: "schmidt")
            #expect(try await client.execute(uri: "/api/v1/strategies/random", method: .post, headers: .session(cookie)).status == .ok)
            let history = try await client.execute(uri: "/api/v1/strategies/history", method: .get, headers: .session(cookie))
            let entryID = try #require(
                (try JSONSerialization.jsonObject(with: Data(history.bodyText.utf8)) as? [[String: Any]])?.first?["id"] as? Int)
            func note(_ fields: [String: Any]) async throws -> (HTTPResponse.Status, String?) {
                let answer = try await client.execute(
                    uri: "/api/v1/strategies/history/\(entryID)", method: .patch, headers: .json(cookie: cookie), body: body(fields))
                return (answer.status, answer.status == .ok ? try answer.json()["note"] as? String : nil)
            }
            // Both devices read "river"; one writes "call Ann", then the other, still on "river", writes "bridge".
            #expect(try await note(["note": "river", "was": NSNull()]) == (.ok, "river"))
            #expect(try await note(["note": "call Ann", "was": "river"]) == (.ok, "call Ann"))
            #expect(try await note(["note": "bridge", "was": " river "]) == (.ok, "call Ann · bridge"))
            // Removing a note seen before it changed keeps it; from its latest text, it goes.
            #expect(try await note(["note": NSNull(), "was": "river"]) == (.ok, "call Ann · bridge"))
            #expect(try await note(["note": "", "was": "call Ann · bridge"]) == (.ok, nil))
            // Without `was` the note is replaced, as before.
            #expect(try await note(["note": "plain"]) == (.ok, "plain"))
            // Bad input writes nothing.
            #expect(try await note(["note": "x", "was": 5]).0 == .unprocessableContent)
            #expect(try await note(["note": String(repeating: "n", count: 501), "was": "plain"]).0 == .unprocessableContent)
            let after = try await client.execute(uri: "/api/v1/strategies/history", method: .get, headers: .session(cookie))
            #expect(
                (try JSONSerialization.jsonObject(with: Data(after.bodyText.utf8)) as? [[String: Any]])?.first?["note"] as? String
                    == "plain")
            let missing = try await client.execute(
                uri: "/api/v1/strategies/history/\(entryID + 1000)", method: .patch, headers: .json(cookie: cookie),
                body: body(["note": "x", "was": "y"]))
            #expect(missing.status == .notFound)
        }
    }

    @Test func legacyRoutesAnswerInTheOriginalShape() async throws {
        try await withDeck(.sqlite) { client in
            let all = try await client.execute(uri: "/api/oblique/all", method: .get)
            #expect(all.status == .ok)
            let one = try await client.execute(uri: "/api/oblique/edition/2/cardnumber/3", method: .get)
            #expect(try one.json()["strategy"] as? String == "Émphasize the flaws")
            let draw = try await client.execute(uri: "/api/oblique/edition/4/draw", method: .get)
            #expect(try draw.json()["strategy"] as? String == "Take a break")
            let id = try #require(try one.json()["id"] as? Int)
            #expect(try await client.execute(uri: "/api/oblique/id/\(id)", method: .get).bodyText == one.bodyText)
            let write = try await client.execute(uri: "/api/oblique/all", method: .post)
            #expect(write.status == .notFound || write.status == .methodNotAllowed)
        }
    }

    @Test func theCardPageHasOpenGraphTagsAndComparesEditions() async throws {
        try await withDeck(.sqlite) { client in
            let list = try await client.execute(uri: "/api/v1/strategies?q=honour", method: .get)
            let id = try #require(
                (try JSONSerialization.jsonObject(with: Data(list.bodyText.utf8)) as? [[String: Any]])?.first?["id"] as? Int)
            let page = try await client.execute(uri: "/strategies/\(id)", method: .get, headers: [.accept: "text/html"])
            #expect(page.status == .ok)
            #expect(page.bodyText.contains("og:description"))
            #expect(page.bodyText.contains("Honour thy error as a hidden intention"))
            #expect(page.bodyText.contains("2nd edition (1978)"))
            let compare = try await client.execute(uri: "/api/v1/strategies/\(id)/editions", method: .get)
            #expect(compare.bodyText.contains("\"kind\":\"added\""))
            #expect(try await client.execute(uri: "/strategies/424242", method: .get, headers: [.accept: "text/html"]).status == .notFound)
            #expect(try await client.execute(uri: "/strategies", method: .get).status == .ok)
        }
    }
}
