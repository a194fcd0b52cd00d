import ChooseYourDestiny
import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import TestSupport
import Testing

@Suite struct StoriesAPITests {
    static let pub = #"""
        {"story": {"id": 7, "name": "The Pub", "summary": "A night out.", "author": "ada", "description": "Short and branching.",
          "chapters": [
            {"id": 1, "name": "Arrival", "is_first_chapter": true, "text": "You walk in.\n\nIt is loud.",
             "choices": [{"chapter_id": 2, "text": "Order a pint"}, {"chapter_id": 3, "text": "Leave"},]},
            {"id": 2, "name": "Bar", "text": "The pint is warm.", "choices": [{"chapter_id": 3, "text": "Go home"}, {"chapter_id": 4, "text": "Sing"}]},
            {"id": 3, "name": "Home", "text": "You sleep."},
            {"id": 4, "name": "Stage", "text": "Applause."},
            {"id": 5, "name": "Cellar", "text": "Nobody comes here."},
          ],
        }}
        """#

    static let twee =
        ":: StoryTitle\nThe Shore\n\n:: Start\nGrey sea. [[Swim->Sea]] [[Stay]]\n\n:: Sea\nCold.\n\n:: Stay\n<<if $x>>Warm.<</if>>\n"

    func publish(
        _ client: some TestClientProtocol, _ cookie: String, _ text: String, type: String = "application/json",
        method: HTTPRequest.Method = .post, uri: String = "/api/v1/stories"
    ) async throws -> TestResponse {
        try await client.execute(
            uri: uri, method: method, headers: [.contentType: type, .cookie: "trove_session=\(cookie)"], body: ByteBuffer(string: text))
    }

    func get(_ client: some TestClientProtocol, _ uri: String, _ cookie: String?) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .get, headers: .session(cookie))
    }

    @Test(arguments: DatabaseKind.allCases)
    func anAuthorPublishesAndReadersReadAndResume(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let author = try await signUp(client, username: "ada")
            let created = try await publish(client, author, Self.pub)
            #expect(created.status == .created)
            let answer = try created.json()
            #expect(answer["id"] as? String == "the-pub")
            #expect(answer["warnings"] as? [String] == ["Chapter \"5\" (Cellar) cannot be reached from the first chapter."])
            let tweeAnswer = try await publish(client, author, Self.twee, type: "text/plain")
            #expect(tweeAnswer.status == .created)
            #expect((try tweeAnswer.json()["warnings"] as? [String])?.first?.contains("<<if>>") == true)

            let reader = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            let catalog = try await get(client, "/api/v1/stories?q=BRANCH", reader).json()["stories"] as? [[String: Any]]
            #expect(catalog?.compactMap { $0["name"] as? String } == ["The Pub"])
            #expect(catalog?.first?["ending_count"] as? Int == 2 && catalog?.first?["owned"] as? Bool == false)
            let story = try await get(client, "/api/v1/stories/the-pub", reader).json()
            #expect(story["start_chapter_id"] as? String == "1")
            #expect((story["chapters"] as? [[String: Any]])?.first?["paragraphs"] as? [String] == ["You walk in.", "It is loud."])

            // Never opened: at the start. Then along choices to an ending, which is remembered.
            #expect(try await get(client, "/api/v1/stories/the-pub/progress", reader).json()["path"] as? [String] == ["1"])
            let moved = try await client.execute(
                uri: "/api/v1/stories/the-pub/progress", method: .put, headers: .json(cookie: reader),
                body: body(["chapter_id": "4", "path": ["1", "2", "4"]]))
            let movedBody = try moved.json()
            #expect(moved.status == .ok && movedBody["endings_found"] as? [String] == ["4"])
            // Rewind to the first choice and take another branch: the ending found stays found.
            let rewound = try await client.execute(
                uri: "/api/v1/stories/the-pub/progress", method: .put, headers: .json(cookie: reader),
                body: body(["chapter_id": "3", "path": ["1", "3"]])
            ).json()
            #expect(rewound["endings_found"] as? [String] == ["4", "3"])
            #expect(try await get(client, "/api/v1/stories/the-pub/progress", reader).json()["chapter_id"] as? String == "3")
            // A path that skips a choice is refused and changes nothing.
            let jump = try await client.execute(
                uri: "/api/v1/stories/the-pub/progress", method: .put, headers: .json(cookie: reader),
                body: body(["chapter_id": "4", "path": ["1", "4"]]))
            #expect(jump.status == .unprocessableContent && jump.errorCode == "invalid_path")
            #expect(try await get(client, "/api/v1/stories/the-pub/progress", reader).json()["chapter_id"] as? String == "3")
            // Another profile starts at the beginning and has an empty library.
            let other = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            #expect(try await get(client, "/api/v1/stories/the-pub/progress", other).json()["path"] as? [String] == ["1"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func libraryAddsAndRemovesWhileTheCatalogKeepsTheStory(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let author = try await signUp(client, username: "ada")
            _ = try await publish(client, author, Self.pub)
            let reader = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            #expect(
                try await client.execute(uri: "/api/v1/stories/the-pub/library", method: .put, headers: .session(reader)).status
                    == .noContent)
            #expect(
                (try await get(client, "/api/v1/stories/library", reader).json()["stories"] as? [[String: Any]])?.first?["in_library"]
                    as? Bool == true)
            // Publishing put the story in its author's own library.
            #expect(
                (try await get(client, "/api/v1/stories/library", author).json()["stories"] as? [[String: Any]])?.compactMap {
                    $0["id"] as? String
                } == ["the-pub"])
            #expect(
                try await client.execute(uri: "/api/v1/stories/the-pub/library", method: .delete, headers: .session(reader)).status
                    == .noContent)
            #expect((try await get(client, "/api/v1/stories/library", reader).json()["stories"] as? [Any])?.isEmpty == true)
            #expect((try await get(client, "/api/v1/stories", reader).json()["stories"] as? [Any])?.count == 1)
            #expect(
                try await client.execute(uri: "/api/v1/stories/nope/library", method: .put, headers: .session(reader)).status == .notFound)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func onlyTheAuthorChangesAStoryAndBrokenOnesListEveryError(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let guest = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            let refused = try await publish(client, guest, Self.pub)
            #expect(refused.status == .forbidden && refused.errorCode == "sign_in_required")
            let author = try await signUp(client, username: "ada")
            _ = try await publish(client, author, Self.pub)
            let intruder = try await signUp(client, username: "bob")
            let taken = try await publish(client, intruder, Self.pub)
            #expect(taken.errorCode == "story_exists" && taken.errorMessage?.contains("IFID") == true, "\(taken.bodyText)")
            #expect(try await publish(client, intruder, Self.pub, method: .put, uri: "/api/v1/stories/the-pub").status == .notFound)
            #expect(
                try await client.execute(uri: "/api/v1/stories/the-pub", method: .delete, headers: .session(intruder)).status == .notFound)

            let broken =
                #"{"story": {"id": "b", "name": "Broken", "chapters": [{"id": "a", "text": " ", "choices": [{"chapter_id": "zz", "text": "go"}]}, {"id": "a", "text": "x"}]}}"#
            let invalid = try await publish(client, author, broken)
            #expect(invalid.status == .unprocessableContent && invalid.errorCode == "invalid_story")
            let details = try #require((try invalid.json()["error"] as? [String: Any])?["details"] as? [String])
            #expect(details.count == 4)
            #expect(details.contains("Chapter id \"a\" is used by more than one chapter."))
            let malformed = try await publish(client, author, "{\"story\": {\n  \"id\": 1,\n  \"name\" \"x\"}}")
            #expect(malformed.status == .unprocessableContent && malformed.bodyText.contains("line 3"))
            #expect(try await publish(client, author, "<story/>", type: "application/xml").status == .unsupportedMediaType)

            // The author updates (the id in the address wins) and withdraws.
            let updated = try await publish(
                client, author, Self.pub.replacingOccurrences(of: "The Pub", with: "The Old Pub"), method: .put,
                uri: "/api/v1/stories/the-pub")
            #expect(updated.status == .ok)
            #expect(try await get(client, "/api/v1/stories/the-pub", author).json()["name"] as? String == "The Old Pub")
            #expect(try await get(client, "/api/v1/stories/the-pub", author).json()["owned"] as? Bool == true)
            #expect(
                try await client.execute(uri: "/api/v1/stories/the-pub", method: .delete, headers: .session(author)).status == .noContent)
            #expect(try await get(client, "/api/v1/stories/the-pub", author).status == .notFound)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aZipBringsTheStoryWithItsPictures(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let author = try await signUp(client, username: "ada")
            let created = try await client.execute(
                uri: "/api/v1/stories", method: .post,
                headers: [.contentType: "application/zip", .cookie: "trove_session=\(author)"],
                body: ByteBuffer(bytes: TestArchive.storyZip))
            #expect(created.status == .created)
            #expect(try created.json()["id"] as? String == "zipped")
            let story = try await get(client, "/api/v1/stories/zipped", author).json()
            #expect(story["cover_url"] as? String == "/api/v1/stories/zipped/resources/cover.svg")
            let cover = try await get(client, "/api/v1/stories/zipped/resources/cover.svg", author)
            // An uploaded picture opened on its own can be nothing but a picture.
            #expect(cover.headers[.contentSecurityPolicy] == "default-src 'none'; style-src 'unsafe-inline'; sandbox")
            #expect(cover.headers[.contentDisposition] == "inline" && cover.headers[.xContentTypeOptions] == "nosniff")
            #expect(cover.status == .ok && cover.headers[.contentType] == "image/svg+xml" && cover.bodyText.hasPrefix("<svg"))
            #expect(try await get(client, "/api/v1/stories/zipped/resources/fork.svg", author).bodyText.contains("#421"))
            #expect(try await get(client, "/api/v1/stories/zipped/resources/none.svg", author).status == .notFound)
            let notZip = try await client.execute(
                uri: "/api/v1/stories", method: .post,
                headers: [.contentType: "application/zip", .cookie: "trove_session=\(author)"],
                body: ByteBuffer(string: "not a zip"))
            #expect(notZip.status == .unprocessableContent && notZip.errorCode == "invalid_story")
            let disguised = try await client.execute(
                uri: "/api/v1/stories", method: .post,
                headers: [.contentType: "application/zip", .cookie: "trove_session=\(author)"],
                body: ByteBuffer(bytes: TestArchive.disguisedPictureZip))
            #expect(disguised.status == .unprocessableContent && disguised.errorCode == "invalid_story")
            #expect(disguised.bodyText.contains("evil.png"))
            #expect(try await get(client, "/api/v1/stories/disguised", author).status == .notFound)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func servesTheSchemaAndTheReaderPages(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let schema = try await client.execute(uri: "/api/v1/stories/schema.json", method: .get)
            #expect(schema.status == .ok && schema.headers[.contentType] == "application/schema+json")
            #expect((try schema.json()["required"] as? [String]) == ["story"])
            #expect(try await client.execute(uri: "/stories", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/stories/missing", method: .get).status == .notFound)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func bylinesAreTheAccountsAndCardsCarryProgress(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, database in
            // The house's story (no owner) keeps the name in its file; an upload claiming the house's name is its account's.
            try await StoryRepository(database: database.sql).save(
                id: "house", story: try StoryIntake.accept(Self.twee, format: .twee).story, owner: nil, source: "cli")
            // A GitHub author's story: no account here, the byline is the name it carries.
            try await StoryRepository(database: database.sql).save(
                id: "gh",
                story: try StoryIntake.accept(
                    Self.pub.replacingOccurrences(of: #""author": "ada""#, with: #""author": "octo""#),
                    format: .storyJSON
                ).story, owner: nil, source: "github")
            let bob = try await signUp(client, username: "bob")
            let impostor = Self.pub.replacingOccurrences(of: #""author": "ada""#, with: #""author": "Trove""#)
            #expect(try await publish(client, bob, impostor).status == .created)
            let ada = try await signUp(client, username: "ada")
            #expect(
                try await publish(
                    client, ada,
                    Self.pub.replacingOccurrences(of: "The Pub", with: "Ada's Pub")
                        .replacingOccurrences(of: "\"id\": 7", with: "\"id\": \"adas-pub\"")
                ).status == .created)

            let catalog = try #require(try await get(client, "/api/v1/stories", ada).json()["stories"] as? [[String: Any]])
            let byID = Dictionary(uniqueKeysWithValues: catalog.map { ($0["id"] as? String ?? "", $0) })
            #expect(byID["the-pub"]?["author"] as? String == "bob" && byID["the-pub"]?["pen_name"] as? String == "Trove")
            #expect(byID["the-pub"]?["author_account"] as? String == "bob")
            #expect(byID["adas-pub"]?["author"] as? String == "ada" && byID["adas-pub"]?["pen_name"] is NSNull)
            #expect(byID["house"]?["author"] as? String == "Trove" && byID["house"]?["author_account"] is NSNull)
            #expect(byID["the-pub"]?["progress"] is NSNull)

            let authors = try #require(try await get(client, "/api/v1/stories/authors", nil).json()["authors"] as? [[String: Any]])
            #expect(authors.compactMap { $0["name"] as? String } == ["Trove", "ada", "bob", "octo"])
            #expect(authors.compactMap { $0["story_count"] as? Int } == [1, 1, 1, 1] && authors.first?["account"] is NSNull)
            #expect(authors.compactMap { $0["house"] as? Bool } == [true, false, false, false] && authors.last?["account"] is NSNull)
            let octo = try await get(client, "/api/v1/stories?author=octo", nil).json()["stories"] as? [[String: Any]]
            #expect(octo?.compactMap { $0["id"] as? String } == ["gh"] && octo?.first?["author_account"] is NSNull)
            let bobs = try await get(client, "/api/v1/stories?account=BOB", nil).json()["stories"] as? [[String: Any]]
            #expect(bobs?.compactMap { $0["id"] as? String } == ["the-pub"])
            let house = try await get(client, "/api/v1/stories?house=true", nil).json()["stories"] as? [[String: Any]]
            #expect(house?.compactMap { $0["id"] as? String } == ["house"])
            #expect(try await get(client, "/api/v1/stories?house=maybe", nil).status == .badRequest)

            // A reader's card says where they are and whether they reached an ending.
            #expect(
                try await client.execute(
                    uri: "/api/v1/stories/the-pub/progress", method: .put, headers: .json(cookie: ada),
                    body: body(["chapter_id": "4", "path": ["1", "2", "4"]])
                ).status == .ok)
            let library = try #require(try await get(client, "/api/v1/stories/library", ada).json()["stories"] as? [[String: Any]])
            #expect(library.compactMap { $0["id"] as? String } == ["adas-pub"])
            let card = try await get(client, "/api/v1/stories?account=bob", ada).json()["stories"] as? [[String: Any]]
            let progress = try #require(card?.first?["progress"] as? [String: Any])
            #expect(progress["chapter_id"] as? String == "4" && progress["chapter_name"] as? String == "Stage")
            #expect(progress["steps"] as? Int == 2 && progress["endings_found"] as? Int == 1 && progress["finished"] as? Bool == true)

            // Nobody can sign up as the house.
            let refused = try await client.execute(
                uri: "/api/v1/account/signup", method: .post, headers: .json(),
                body: body(["username": "Trove", "password": "long enough"]))
            #expect(refused.status == .unprocessableContent || refused.status == .badRequest)
        }
    }

    /// The Night Ferry (samples/stories/twine-harlowe): home only with the lantern taken earlier.
    @Test(arguments: DatabaseKind.allCases)
    func aTwineStoryIsPlayedStepByStepWithItsVariables(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let html = try String(contentsOfFile: "samples/stories/twine-harlowe/story.html", encoding: .utf8)
            let author = try await signUp(client, username: "ada")
            let created = try await publish(client, author, html, type: "text/html")
            #expect(created.status == .created)
            let id = try #require(try created.json()["id"] as? String)
            let story = try await get(client, "/api/v1/stories/\(id)", author).json()
            #expect(story["interactive"] as? Bool == true)
            // Three endings a reader can reach: adrift, the morning, and the crossing with the lantern.
            #expect(story["ending_count"] as? Int == 3, "\(story["ending_count"] ?? "none")")

            func play(_ body: [String: Any]? = nil) async throws -> [String: Any] {
                let response =
                    body == nil
                    ? try await get(client, "/api/v1/stories/\(id)/play", author)
                    : try await client.execute(
                        uri: "/api/v1/stories/\(id)/play", method: .post, headers: .json(cookie: author), body: WebAppTests.body(body!))
                #expect(response.status == .ok, "\(response.bodyText)")
                return try response.json()
            }
            func choose(_ words: String, in here: [String: Any]) async throws -> [String: Any] {
                let choices = try #require(here["choices"] as? [[String: Any]])
                let choice = try #require(choices.first { ($0["text"] as? String)?.contains(words) == true }, "no '\(words)' in \(choices)")
                return try await play(["choice": choice["index"] as? Int ?? -1, "at": here["step"] as? Int ?? -1])
            }

            var here = try await play()
            #expect(here["passage"] as? String == "Dock" && here["step"] as? Int == 0)
            #expect((here["paragraphs"] as? [String])?.first?.contains("you have 2") == true)
            here = try await choose("Search the warehouse", in: here)
            here = try await choose("coin", in: here)
            #expect(
                here["passage"] as? String == "Dock Again"
                    && (here["paragraphs"] as? [String])?.joined().contains("You have 3 coins") == true)
            let beforeCrossing = try #require(here["step"] as? Int)
            here = try await choose("Pay the ferryman", in: here)
            // No lantern: the crossing's (goto:) ends adrift.
            #expect(here["passage"] as? String == "Adrift" && here["is_ending"] as? Bool == true)
            #expect(here["endings_found"] as? [String] == ["Adrift"])
            #expect(here["trail"] as? [String] == ["Dock", "Warehouse", "Dock Again", "Adrift"])

            // Back to the dock before paying: the variables are as they were there, so the lantern can still be taken.
            here = try await play(["step": beforeCrossing])
            #expect(here["passage"] as? String == "Dock Again" && here["trail"] as? [String] == ["Dock", "Warehouse", "Dock Again"])
            here = try await choose("Search the warehouse again", in: here)
            here = try await choose("lantern", in: here)
            here = try await choose("Pay the ferryman", in: here)
            #expect(
                here["passage"] as? String == "Crossing" && (here["paragraphs"] as? [String])?.joined().contains("You are home") == true)
            #expect(here["endings_found"] as? [String] == ["Adrift", "Crossing"])
            // Resuming finds the same place; the library card counts both endings.
            #expect(try await play()["passage"] as? String == "Crossing")
            let card = try await get(client, "/api/v1/stories/library", author).json()["stories"] as? [[String: Any]]
            #expect((card?.first?["progress"] as? [String: Any])?["endings_found"] as? Int == 2)

            // A choice that is not there, a step not on the path, both at once: 422, the place unchanged.
            for bad in [["choice": 9], ["step": 99], ["choice": 0, "step": 0]] as [[String: Any]] {
                let refused = try await client.execute(
                    uri: "/api/v1/stories/\(id)/play", method: .post, headers: .json(cookie: author), body: WebAppTests.body(bad))
                #expect(refused.status == .unprocessableContent, "\(bad)")
            }
            #expect(try await play()["passage"] as? String == "Crossing")
            // A choice made on a page left at an earlier step (read on elsewhere since) would be taken from another
            // passage: 409 place_moved, the place unchanged.
            let stale = try await client.execute(
                uri: "/api/v1/stories/\(id)/play", method: .post, headers: .json(cookie: author),
                body: WebAppTests.body(["choice": 0, "at": beforeCrossing]))
            #expect(stale.status == .conflict && stale.errorCode == "place_moved", "\(stale.bodyText)")
            #expect(try await play()["passage"] as? String == "Crossing")
            // A story of plain chapters is read from its chapters.
            #expect(try await publish(client, author, Self.pub).status == .created)
            #expect(try await get(client, "/api/v1/stories/the-pub/play", author).status == .conflict)
        }
    }
}

@Suite struct StoryMapPageTests {
    @Test(arguments: DatabaseKind.allCases)
    func drawsTheMapWithEscapedNames(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let author = try await signUp(client, username: "ada")
            let story = StoriesAPITests.pub.replacingOccurrences(of: "\"Cellar\"", with: "\"<b>Cellar</b>\"")
            _ = try await client.execute(
                uri: "/api/v1/stories", method: .post, headers: [.contentType: "application/json", .cookie: "trove_session=\(author)"],
                body: ByteBuffer(string: story))
            let page = try await client.execute(uri: "/stories/the-pub/map", method: .get, headers: .session(author))
            #expect(page.status == .ok)
            #expect(page.bodyText.contains("<svg") && page.bodyText.contains("sm-unreachable") && page.bodyText.contains("&lt;b&gt;Cellar"))
            #expect(!page.bodyText.contains("<b>Cellar"))
            #expect(page.bodyText.contains("5 chapters, 2 endings"))
        }
    }
}
