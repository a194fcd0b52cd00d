import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MagneticPoetry
import Storage
import Testing

@Suite struct PoetryAPITests {
    static var board: [String: Any] {
        [
            "word_set_id": "nature", "font": "serif", "font_scale": 1,
            "magnets": [["id": "m1", "word": "river", "x": 0.1, "y": 0.2, "rotation": 0, "z": 1]],
            "extra_words": [String](),
        ]
    }

    func newPoem(_ client: some TestClientProtocol, cookie: String) async throws -> [String: Any] {
        let response = try await client.execute(
            uri: "/api/v1/poetry/poems", method: .post, headers: .json(cookie: cookie),
            body: body(["title": "Stream", "board": Self.board]))
        #expect(response.status == .created)
        return try response.json()
    }

    func guest(_ client: some TestClientProtocol) async throws -> String {
        try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
    }

    @Test(arguments: DatabaseKind.allCases)
    func aPoemIsSavedWholeAndConflictsAreDetected(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let poem = try await newPoem(client, cookie: cookie)
            let id = try #require(poem["id"] as? String)
            var moved = Self.board
            moved["magnets"] = [["id": "m1", "word": "river", "x": 0.6, "y": 0.7, "rotation": 15, "z": 2]]
            let save = try await client.execute(
                uri: "/api/v1/poetry/poems/\(id)", method: .put, headers: .json(cookie: cookie),
                body: body(["version": 1, "title": "Stream", "board": moved]))
            #expect(save.status == .ok)
            #expect(try save.json()["version"] as? Int == 2)
            let stale = try await client.execute(
                uri: "/api/v1/poetry/poems/\(id)", method: .put, headers: .json(cookie: cookie),
                body: body(["version": 1, "title": "Stream", "board": Self.board]))
            #expect(stale.status == .conflict)
            #expect(stale.errorCode == "version_conflict")
            let read = try await client.execute(uri: "/api/v1/poetry/poems/\(id)", method: .get, headers: .session(cookie))
            let magnets = try #require((try read.json()["board"] as? [String: Any])?["magnets"] as? [[String: Any]])
            #expect(magnets.first?["x"] as? Double == 0.6)
            // A read passes the stored board on as it is: the same answer the save gave, encoded by JSONEncoder.
            let readBody = try JSONSerialization.jsonObject(with: Data(buffer: read.body)) as? NSDictionary
            let savedBody = try JSONSerialization.jsonObject(with: Data(buffer: save.body)) as? NSDictionary
            #expect(readBody != nil && readBody == savedBody)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func badBoardsAre422AndWriteNothing(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let poem = try await newPoem(client, cookie: cookie)
            let id = try #require(poem["id"] as? String)
            let bad: [[String: Any]] = [
                ["id": "m1", "word": "river", "x": 1.5, "y": 0.2, "rotation": 0, "z": 1],
                ["id": "m1", "word": "skyscraper", "x": 0.1, "y": 0.2, "rotation": 0, "z": 1],
                ["id": "m1", "word": "river", "x": 0.1, "y": 0.2, "rotation": 999, "z": 1],
            ]
            for magnet in bad {
                var board = Self.board
                board["magnets"] = [magnet]
                let response = try await client.execute(
                    uri: "/api/v1/poetry/poems/\(id)", method: .put, headers: .json(cookie: cookie),
                    body: body(["version": 1, "title": "x", "board": board]))
                #expect(response.status == .unprocessableContent, "\(magnet)")
            }
            var oversize = Self.board
            oversize["magnets"] = (0...400).map { ["id": "m\($0)", "word": "river", "x": 0, "y": 0, "rotation": 0, "z": 0] }
            let tooMany = try await client.execute(
                uri: "/api/v1/poetry/poems/\(id)", method: .put, headers: .json(cookie: cookie),
                body: body(["version": 1, "title": "x", "board": oversize]))
            #expect(tooMany.status == .unprocessableContent)
            var unknownSet = Self.board
            unknownSet["word_set_id"] = "nope"
            let noSet = try await client.execute(
                uri: "/api/v1/poetry/poems", method: .post, headers: .json(cookie: cookie),
                body: body(["board": unknownSet]))
            #expect(noSet.status == .unprocessableContent)
            let read = try await client.execute(uri: "/api/v1/poetry/poems/\(id)", method: .get, headers: .session(cookie))
            #expect(try read.json()["version"] as? Int == 1)
            let list = try await client.execute(uri: "/api/v1/poetry/poems", method: .get, headers: .session(cookie))
            #expect(list.bodyText.components(separatedBy: "\"id\"").count == 2)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func backgroundsAreCheckedByTheirBytes(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let id = try #require(try await newPoem(client, cookie: cookie)["id"] as? String)
            let uri = "/api/v1/poetry/poems/\(id)/background"
            var fakePNG = HTTPFields.session(cookie)
            fakePNG[.contentType] = "image/png"
            let text = try await client.execute(
                uri: uri, method: .post, headers: fakePNG, body: ByteBuffer(string: "I am a text file named photo.png"))
            #expect(text.status == .unprocessableContent)
            #expect(text.errorCode == "not_an_image")
            var plain = HTTPFields.session(cookie)
            plain[.contentType] = "text/plain"
            #expect(
                try await client.execute(uri: uri, method: .post, headers: plain, body: ByteBuffer(string: "x")).status
                    == .unsupportedMediaType)
            let huge = ByteBuffer(bytes: [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: 10 * 1024 * 1024))
            var jpeg = HTTPFields.session(cookie)
            jpeg[.contentType] = "image/jpeg"
            #expect(try await client.execute(uri: uri, method: .post, headers: jpeg, body: huge).status == .contentTooLarge)
            #expect(try await client.execute(uri: uri, method: .get, headers: .session(cookie)).status == .notFound)

            let gif = ByteBuffer(bytes: Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 59])
            var gifHeaders = HTTPFields.session(cookie)
            gifHeaders[.contentType] = "image/gif"
            let stored = try await client.execute(uri: uri, method: .post, headers: gifHeaders, body: gif)
            #expect(stored.status == .created)
            #expect(try stored.json()["has_background"] as? Bool == true)
            let back = try await client.execute(uri: uri, method: .get, headers: .session(cookie))
            #expect(back.headers[.contentType] == "image/gif")
            #expect(back.headers[.contentSecurityPolicy] == "default-src 'none'; style-src 'unsafe-inline'; sandbox")
            #expect(back.body == gif)
            let stranger = try await guest(client)
            #expect(try await client.execute(uri: uri, method: .get, headers: .session(stranger)).status == .notFound)
            #expect(try await client.execute(uri: uri, method: .delete, headers: .session(cookie)).status == .noContent)
            #expect(try await client.execute(uri: uri, method: .get, headers: .session(cookie)).status == .notFound)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func anotherProfileGets404ForEveryPoemRoute(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let owner = try await guest(client)
            let id = try #require(try await newPoem(client, cookie: owner)["id"] as? String)
            let stranger = try await guest(client)
            let attempts: [(HTTPRequest.Method, String, ByteBuffer?)] = [
                (.get, "/api/v1/poetry/poems/\(id)", nil),
                (.put, "/api/v1/poetry/poems/\(id)", body(["version": 1, "title": "x", "board": Self.board])),
                (.delete, "/api/v1/poetry/poems/\(id)", nil),
                (.post, "/api/v1/poetry/poems/\(id)/publish", nil),
                (.delete, "/api/v1/poetry/poems/\(id)/background", nil),
            ]
            for (method, uri, payload) in attempts {
                let response = try await client.execute(uri: uri, method: method, headers: .json(cookie: stranger), body: payload)
                #expect(response.status == .notFound, "\(method) \(uri)")
            }
            let list = try await client.execute(uri: "/api/v1/poetry/poems", method: .get, headers: .session(stranger))
            #expect(list.bodyText == "[]")
            #expect(try await client.execute(uri: "/api/v1/poetry/poems/\(id)", method: .get, headers: .session(owner)).status == .ok)
        }
    }

    @Test func wordSetsCanBeMadeRenamedAndDeletedButBuiltInsStay() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let cookie = try await guest(client)
            let all = try await client.execute(uri: "/api/v1/poetry/wordsets", method: .get, headers: .session(cookie))
            let sets = try JSONSerialization.jsonObject(with: Data(all.bodyText.utf8)) as? [[String: Any]] ?? []
            #expect(sets.count >= 5)
            #expect(sets.allSatisfy { ($0["words"] as? [String])?.count ?? 0 >= 60 })
            // A word given twice is dropped, not refused.
            let created = try await client.execute(
                uri: "/api/v1/poetry/wordsets", method: .post, headers: .json(cookie: cookie),
                body: body(["name": "Kitchen", "words": [" spoon ", "fork", "Spoon"]]))
            #expect(created.status == .created)
            #expect(try created.json()["words"] as? [String] == ["spoon", "fork"])
            let id = try #require(try created.json()["id"] as? String)
            // Two own sets never share a name (ignoring case), nor take a built-in set's; keeping its own name is fine.
            let sameName = try await client.execute(
                uri: "/api/v1/poetry/wordsets", method: .post, headers: .json(cookie: cookie),
                body: body(["name": " kitchen", "words": ["pan"]]))
            #expect(sameName.status == .conflict && sameName.bodyText.contains("wordset_name_taken"))
            let builtInName = try #require(sets.first?["name"] as? String)
            #expect(
                try await client.execute(
                    uri: "/api/v1/poetry/wordsets", method: .post, headers: .json(cookie: cookie),
                    body: body(["name": builtInName, "words": ["pan"]])
                ).status == .conflict)
            #expect(
                try await client.execute(
                    uri: "/api/v1/poetry/wordsets/\(id)", method: .put, headers: .json(cookie: cookie),
                    body: body(["name": "Kitchen", "words": ["spoon", "fork"]])
                ).status == .ok)
            let renamed = try await client.execute(
                uri: "/api/v1/poetry/wordsets/\(id)", method: .put, headers: .json(cookie: cookie),
                body: body(["name": "Cutlery", "words": ["spoon", "fork", "knife"]]))
            #expect(try renamed.json()["name"] as? String == "Cutlery")
            #expect(
                try await client.execute(uri: "/api/v1/poetry/wordsets/nature", method: .delete, headers: .session(cookie)).status
                    == .notFound)
            var board = Self.board
            board["word_set_id"] = id
            board["magnets"] = [["id": "k", "word": "knife", "x": 0.5, "y": 0.5, "rotation": 0, "z": 0]]
            let poem = try await client.execute(
                uri: "/api/v1/poetry/poems", method: .post, headers: .json(cookie: cookie),
                body: body(["board": board]))
            #expect(poem.status == .created)
            let inUse = try await client.execute(uri: "/api/v1/poetry/wordsets/\(id)", method: .delete, headers: .session(cookie))
            #expect(inUse.status == .conflict)
            let poemID = try #require(try poem.json()["id"] as? String)
            _ = try await client.execute(uri: "/api/v1/poetry/poems/\(poemID)", method: .delete, headers: .session(cookie))
            #expect(
                try await client.execute(uri: "/api/v1/poetry/wordsets/\(id)", method: .delete, headers: .session(cookie)).status
                    == .noContent)
        }
    }

    @Test func aWordSetEditSentWithItsBaseKeepsWhatAnotherDeviceChangedAndABadBaseWritesNothing() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let cookie = try await guest(client)
            let created = try await client.execute(
                uri: "/api/v1/poetry/wordsets", method: .post, headers: .json(cookie: cookie),
                body: body(["name": "Kitchen", "words": ["spoon", "fork"]]))
            let id = try #require(try created.json()["id"] as? String)
            let base: [String: Any] = ["name": "Kitchen", "words": ["spoon", "fork"]]
            let phone = try await client.execute(
                uri: "/api/v1/poetry/wordsets/\(id)", method: .put, headers: .json(cookie: cookie),
                body: body(["name": "Kitchen", "words": ["spoon"], "base": base]))
            #expect(try phone.json()["words"] as? [String] == ["spoon"])
            let laptop = try await client.execute(
                uri: "/api/v1/poetry/wordsets/\(id)", method: .put, headers: .json(cookie: cookie),
                body: body(["name": "Kitchen", "words": ["spoon", "fork", "pan"], "base": base]))
            #expect(laptop.status == .ok)
            #expect(try laptop.json()["words"] as? [String] == ["spoon", "pan"])
            for bad: [String: Any] in [
                ["name": "Kitchen", "words": ["x"], "base": ["name": "Kitchen"]],
                ["name": "Kitchen", "words": ["x"], "base": ["name": "Kitchen", "words": "spoon"]],
                ["name": "Kitchen", "words": ["x"], "base": "Kitchen"],
            ] {
                let refused = try await client.execute(
                    uri: "/api/v1/poetry/wordsets/\(id)", method: .put, headers: .json(cookie: cookie), body: body(bad))
                #expect((400..<500).contains(refused.status.code) && refused.errorCode != nil, "\(bad)")
            }
            let stored = try await client.execute(uri: "/api/v1/poetry/wordsets", method: .get, headers: .session(cookie))
            let sets = try JSONSerialization.jsonObject(with: Data(stored.bodyText.utf8)) as? [[String: Any]] ?? []
            #expect(sets.first { $0["id"] as? String == id }?["words"] as? [String] == ["spoon", "pan"])
        }
    }

    @Test func publishedPoemsAreReadableByAnyoneUntilWithdrawn() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let cookie = try await guest(client)
            let id = try #require(try await newPoem(client, cookie: cookie)["id"] as? String)
            let published = try await client.execute(uri: "/api/v1/poetry/poems/\(id)/publish", method: .post, headers: .session(cookie))
            let publicId = try #require(try published.json()["public_id"] as? String)
            let page = try await client.execute(uri: "/poetry/p/\(publicId)", method: .get)
            #expect(page.status == .ok)
            #expect(page.bodyText.contains("Stream"))
            let data = try await client.execute(uri: "/api/v1/poetry/published/\(publicId)", method: .get)
            #expect(try data.json()["title"] as? String == "Stream")
            #expect(
                try await client.execute(uri: "/api/v1/poetry/poems/\(id)/publish", method: .delete, headers: .session(cookie)).status
                    == .noContent)
            #expect(
                try await client.execute(uri: "/poetry/p/\(publicId)", method: .get, headers: [.accept: "text/html"]).status == .notFound)
        }
    }

    /// Real CMU entries; the answers below are derived by hand from them (rhyme: from the last stressed vowel
    /// on; alliteration: the first sound; syllables: the vowels), ordered by how common each word is.
    static let dictionary = """
        moon M UW1 N
        june JH UW1 N
        soon S UW1 N
        spoon S P UW1 N
        noon N UW1 N
        tune T UW1 N
        dune D UW1 N
        balloon B AH0 L UW1 N
        mood M UW1 D
        money M AH1 N IY0
        magnet M AE1 G N AH0 T
        mountain M AW1 N T AH0 N
        music M Y UW1 Z IH0 K
        poetry P OW1 AH0 T R IY0
        """
    /// wordfreq's buckets (lower is more common); "dune" is not common, so it is never offered.
    static let frequencies = [
        "moon": 1, "soon": 1, "money": 1, "music": 1, "june": 2, "tune": 2, "mood": 2, "mountain": 2,
        "noon": 3, "spoon": 3, "poetry": 3, "balloon": 4, "magnet": 4,
    ]

    @Test(arguments: DatabaseKind.allCases)
    func wordHelpersAnswerFromTheDictionary(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, database in
            _ = try await PronunciationRepository(database: database.sql)
                .replaceAll(PronouncingDictionary.parse(Self.dictionary), frequencies: Self.frequencies)
            let rhymes = try await client.execute(uri: "/api/v1/poetry/rhymes?word=Moon", method: .get)
            #expect(rhymes.status == .ok)
            #expect(try rhymes.json()["words"] as? [String] == ["soon", "june", "tune", "noon", "spoon", "balloon"])
            let alliterations = try await client.execute(uri: "/api/v1/poetry/alliterations?word=moon", method: .get)
            #expect(try alliterations.json()["words"] as? [String] == ["money", "music", "mood", "mountain", "magnet"])
            let unknown = try await client.execute(uri: "/api/v1/poetry/rhymes?word=zzxq", method: .get)
            #expect(try unknown.json()["words"] as? [String] == [])
            let syllables = try await client.execute(uri: "/api/v1/poetry/syllables?words=Moon,poetry,music,balloon,zzxq", method: .get)
            let counts = try #require(try syllables.json()["syllables"] as? [String: Any])
            #expect(
                counts["Moon"] as? Int == 1 && counts["poetry"] as? Int == 3 && counts["music"] as? Int == 2
                    && counts["balloon"] as? Int == 2)
            #expect(counts["zzxq"] is NSNull)
            let tooMany = (0...500).map { "w\($0)" }.joined(separator: ",")
            #expect(try await client.execute(uri: "/api/v1/poetry/syllables?words=\(tooMany)", method: .get).status == .badRequest)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aPublishedPoemsBackgroundIsPublicUntilWithdrawn(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let id = try #require(try await newPoem(client, cookie: cookie)["id"] as? String)
            let publicId = try #require(
                try await client.execute(uri: "/api/v1/poetry/poems/\(id)/publish", method: .post, headers: .session(cookie))
                    .json()["public_id"] as? String)
            let uri = "/api/v1/poetry/published/\(publicId)/background"
            #expect(try await client.execute(uri: uri, method: .get).status == .notFound, "no background yet")
            let gif = ByteBuffer(bytes: Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 59])
            var headers = HTTPFields.session(cookie)
            headers[.contentType] = "image/gif"
            #expect(
                try await client.execute(uri: "/api/v1/poetry/poems/\(id)/background", method: .post, headers: headers, body: gif).status
                    == .created)
            let shown = try await client.execute(uri: uri, method: .get)
            #expect(shown.status == .ok && shown.headers[.contentType] == "image/gif" && shown.body == gif)
            #expect(
                try await client.execute(uri: "/api/v1/poetry/poems/\(id)/publish", method: .delete, headers: .session(cookie)).status
                    == .noContent)
            #expect(try await client.execute(uri: uri, method: .get).status == .notFound)
        }
    }

    @Test func wordHelpersSayWhenTheDictionaryIsMissing() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let rhymes = try await client.execute(uri: "/api/v1/poetry/rhymes?word=moon", method: .get)
            #expect(rhymes.status == .notFound)
            #expect(rhymes.errorCode == "not_imported")
            #expect(try await client.execute(uri: "/api/v1/poetry/rhymes", method: .get).status == .badRequest)
        }
    }
}
