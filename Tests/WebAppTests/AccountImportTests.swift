import ChooseYourDestiny
import CityRoulette
import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MagneticPoetry
import Storage
import TestSupport
import Testing
import YogiYogini

@testable import WebApp

/// Moving between servers: an account's export, imported into a new account on another Trove (here: another
/// database, of either kind), gives the same things back with that server's ids.
@Suite struct AccountImportTests {
    static let pairs: [(DatabaseKind, DatabaseKind)] = [(.sqlite, .postgres), (.postgres, .sqlite)]

    func profileID(_ client: some TestClientProtocol, _ cookie: String) async throws -> String {
        let me = try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(cookie))
        return try #require(me.profile?["id"] as? String)
    }

    func export(_ client: some TestClientProtocol, _ cookie: String) async throws -> Data {
        let response = try await client.execute(uri: "/api/v1/account/export", method: .get, headers: .session(cookie))
        #expect(response.status == .ok)
        return Data(response.bodyText.utf8)
    }

    func importing(_ client: some TestClientProtocol, _ cookie: String, _ data: Data) async throws -> TestResponse {
        try await client.execute(
            uri: "/api/v1/account/import", method: .post, headers: .json(cookie: cookie), body: ByteBuffer(bytes: data))
    }

    /// Something in every app, made through the repositories.
    func fill(_ database: Database, profileID id: String) async throws {
        let sql = database.sql
        let strategies = StrategyProfileRepository(database: sql)
        let card = try await strategies.createOwnCard(profileID: id, text: "Honour thy error as a hidden intention")
        try await strategies.setFavourite(profileID: id, cardID: card.id)
        try await strategies.importDraw(profileID: id, cardID: card.id, at: Date(timeIntervalSince1970: 1_780_000_000), note: "Tried it")

        let set = try await WordSetRepository(database: sql).create(profileID: id, name: "Sea", words: ["tide", "salt", "gull"])
        let board = Board(wordSetId: set.id, font: .serif, magnets: [.init(id: "m1", word: "tide", x: 0.25, y: 0.5, rotation: 3)])
        _ = try await PoemRepository(database: sql).create(profileID: id, title: "Low water", board: board)

        _ = try await CityCollectionRepository(database: sql).importCities(
            [.init(geonameid: 3_176_959, favourite: true), .init(geonameid: 3_169_921, favourite: false)], profileID: id)

        let roster = YogaRosterRepository(database: sql)
        try await roster.saveSettings(.init(temperatureUnit: .fahrenheit, slippingWeeks: 5), profileID: id)
        let member = try #require(try await roster.types(profileID: id).first { $0.type.name == "member" })
        let pilates = try await roster.createType(name: "pilates", profileID: id)
        let anna = try await roster.createStudent(
            Student(id: "", name: "Anna", joinedOn: "2026-01-10", active: true, typeID: member.type.id, notes: "knees"), profileID: id)
        let bruno = try await roster.createStudent(
            Student(id: "", name: "Bruno", joinedOn: "2026-02-01", active: false, typeID: pilates.type.id, notes: ""), profileID: id)
        let loft = VenuePlace(name: "Loft", address: "Via Roma 1", latitude: 43.77, longitude: 11.25)
        let venue = try await YogaVenueRepository(database: sql).save(loft, source: "typed", externalID: nil, profileID: id)
        _ = try await YogaSessionRepository(database: sql).record(
            venueID: venue.id, place: loft, startedAt: Date(timeIntervalSince1970: 1_780_000_000),
            endedAt: Date(timeIntervalSince1970: 1_780_003_600), attendeeIDs: [anna.student.id, bruno.student.id], notes: "Hips",
            temperature: 12.5, profileID: id)
        _ = try await YogaClassRepository(database: sql).start(
            venueID: venue.id, place: loft, attendeeIDs: [anna.student.id], notes: "now", profileID: id,
            at: Date(timeIntervalSince1970: 1_780_100_000))

        let stories = StoryRepository(database: sql)
        let story = Story(
            id: "tide-pool", name: "The Tide Pool",
            chapters: [
                Chapter(id: "a", name: "Shore", isFirst: true, text: "Wet sand.", choices: [Choice(chapterID: "b", text: "Wade in")]),
                Chapter(id: "b", name: "Pool", text: "Cold."),
            ])
        try await stories.save(id: story.id, story: story, owner: id, source: "upload")
        try await stories.addToLibrary(storyID: story.id, profileID: id)
        try await stories.saveProgress(.init(path: ["a", "b"], endingsFound: ["b"]), storyID: story.id, profileID: id)
    }

    /// An export without ids, times of export and the profile, for comparing two profiles' things.
    func comparable(_ data: Data) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        // Types made in one instant (the import's) list in either order.
        if var yoga = object["yoga"] as? [String: Any], let types = yoga["student_types"] as? [[String: Any]] {
            yoga["student_types"] = types.sorted { ($0["name"] as? String ?? "") < ($1["name"] as? String ?? "") }
            object["yoga"] = yoga
        }
        object["profile"] = nil
        object["exported_at"] = nil
        func strip(_ value: Any) -> Any {
            if let dictionary = value as? [String: Any] {
                var out: [String: Any] = [:]
                for (key, inner) in dictionary
                where !["id", "type_id", "word_set_id", "updated_at", "last_used_at", "elapsed_seconds", "added_at", "student_count"]
                    .contains(
                        key)
                {
                    out[key] = strip(inner)
                }
                return out
            }
            if let list = value as? [Any] { return list.map(strip) }
            return value
        }
        let stripped = strip(object)
        return String(decoding: try JSONSerialization.data(withJSONObject: stripped, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Where two JSON texts first differ, with some context.
    static func difference(_ a: String, _ b: String) -> String {
        let index = zip(a, b).prefix { $0 == $1 }.count
        return "…\(a.dropFirst(max(0, index - 80)).prefix(200))… against …\(b.dropFirst(max(0, index - 80)).prefix(200))…"
    }

    @Test(arguments: pairs)
    func anExportMovesToAnotherServerWhole(from source: DatabaseKind, to target: DatabaseKind) async throws {
        let (exported, owner) = try await withCityApp(source) { client, database in
            let cookie = try await signUp(client, username: "ada")
            try await fill(database, profileID: try await profileID(client, cookie))
            return (try await export(client, cookie), try await profileID(client, cookie))
        }
        try await withCityApp(target) { client, database in
            let cookie = try await signUp(client, username: "ada")
            let response = try await importing(client, cookie, exported)
            #expect(response.status == .ok, "\(response.bodyText)")
            let report = try response.json()
            let added = try #require(report["added"] as? [String: Int])
            #expect(
                added == [
                    "own_cards": 1, "favourite_cards": 1, "draws": 1, "word_sets": 1, "poems": 1, "cities": 2, "students": 2, "venues": 1,
                    "sessions": 1, "class_in_session": 1, "published_stories": 1, "stories": 1, "reading_places": 1,
                ])
            #expect(report["skipped"] as? [String] == [])
            let again = try await export(client, cookie)
            let (now, then) = (try comparable(again), try comparable(exported))
            #expect(now == then, "\(Self.difference(now, then))")
            // The poem's board names the word set as it is here.
            let poetry = try #require(try JSONSerialization.jsonObject(with: again) as? [String: Any])["poetry"] as? [String: Any]
            let setID = ((poetry?["word_sets"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(
                setID != nil
                    && ((poetry?["poems"] as? [[String: Any]])?.first?["board"] as? [String: Any])?["word_set_id"] as? String == setID)
            // New ids here, not the other server's.
            #expect(try await profileID(client, cookie) != owner || source == target)
            // A second import finds the profile full and writes nothing.
            let before = try await GuestMerge(database: database.sql).work(of: try await profileID(client, cookie))
            let twice = try await importing(client, cookie, exported)
            #expect(twice.status == .conflict && twice.errorCode == "profile_not_empty")
            #expect(try await GuestMerge(database: database.sql).work(of: try await profileID(client, cookie)) == before)
            // A file exported before the API took snake_case keys reads the same.
            let legacy = try await importing(client, try await signUp(client, username: "bob"), try Self.camelCased(exported))
            #expect(legacy.status == .ok, "\(legacy.bodyText)")
            // (Its story was published here by the first import, so only that is left out.)
            #expect(try legacy.json()["added"] as? [String: Int] == added.filter { $0.key != "published_stories" }, "\(legacy.bodyText)")
        }
    }

    /// `export` as Trove wrote it before snake_case keys (`trove-export/1`).
    static func camelCased(_ export: Data) throws -> Data {
        var names = Dictionary(uniqueKeysWithValues: ProfileImporter.legacyKeys.map { ($0.value, $0.key) })
        names.merge(["word_set_id": "wordSetId", "font_scale": "fontScale", "extra_words": "extraWords", "exported_at": "exportedAt"]) {
            a, _ in a
        }
        func rename(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return Dictionary(uniqueKeysWithValues: object.map { (names[$0.key] ?? $0.key, rename($0.value)) })
            }
            if let list = value as? [Any] { return list.map(rename) }
            return value
        }
        var document = try #require(rename(try JSONSerialization.jsonObject(with: export)) as? [String: Any])
        document["format"] = "trove-export/1"
        return try JSONSerialization.data(withJSONObject: document)
    }

    @Test(arguments: DatabaseKind.allCases)
    func aFileThatIsNotAnExportIsRefusedAndNothingIsWritten(kind: DatabaseKind) async throws {
        try await withCityApp(kind) { client, database in
            let cookie = try await signUp(client, username: "bea")
            let id = try await profileID(client, cookie)
            let wrong: [(Data, HTTPResponse.Status, String)] = [
                (Data("not json".utf8), .unprocessableContent, "invalid_export"),
                (Data(#"{"format": "something-else/1"}"#.utf8), .unprocessableContent, "invalid_export"),
                (Data(#"{"format": "trove-export/2", "poetry": []}"#.utf8), .unprocessableContent, "invalid_export"),
                // The strategies part is read and written first; the broken yoga part after it undoes everything.
                (
                    Data(
                        #"{"format": "trove-export/2", "strategies": {"favourites": [], "history": [], "own_cards": [{"id": 9, "edition": 0, "cardnumber": 1, "strategy": "Kept?"}]}, "yoga": {"students": 3}}"#
                            .utf8), .unprocessableContent, "invalid_export"
                ),
            ]
            for (data, status, code) in wrong {
                let response = try await importing(client, cookie, data)
                #expect(response.status == status && response.errorCode == code, "\(response.bodyText)")
            }
            #expect(try await GuestMerge(database: database.sql).work(of: id).isEmpty)
            #expect(try await StrategyProfileRepository(database: database.sql).ownCards(profileID: id).isEmpty)
            let plain = try await client.execute(
                uri: "/api/v1/account/import", method: .post, headers: [.contentType: "text/plain", .cookie: "trove_session=\(cookie)"],
                body: ByteBuffer(string: "{}"))
            #expect(plain.status == .unsupportedMediaType)
        }
    }
}
