import DatabaseDrivers
import Foundation
import MagneticPoetry
import Storage
import TestSupport
import Testing

@Suite struct PoetryStorageTests {
    let board = Board(
        wordSetId: "nature", font: .serif, fontScale: 1.2,
        magnets: [.init(id: "m1", word: "river", x: 0.1, y: 0.2, rotation: 12.5, z: 3)], extraWords: [])

    @Test(arguments: DatabaseKind.allCases)
    func poemsSaveWholeBoardsWithRisingVersions(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { (database: Database) async throws in
            let poems = PoemRepository(database: database.sql)
            let profile = try await ProfileRepository(database: database.sql).createGuest()
            let created = try await poems.create(profileID: profile.id, title: "Stream", board: board)
            #expect(created.version == 1)
            var moved = board
            moved.magnets[0].x = 0.75
            let saved = try #require(try await poems.save(id: created.id, profileID: profile.id, version: 1, title: "Stream", board: moved))
            #expect(saved.poem.version == 2)
            #expect(try JSONDecoder().decode(Board.self, from: Data(saved.boardJSON.utf8)) == moved)
            #expect(try await poems.find(id: created.id, profileID: profile.id)?.board == moved)
            // A save based on the old version is refused and changes nothing.
            await #expect(throws: PoetryError.versionConflict(current: 2)) {
                try await poems.save(id: created.id, profileID: profile.id, version: 1, title: "Old", board: board)
            }
            #expect(try await poems.find(id: created.id, profileID: profile.id)?.board == moved)
            #expect(try await poems.list(profileID: profile.id).map(\.id) == [created.id])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func anotherProfileCannotReachAPoemOrItsBackground(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { (database: Database) async throws in
            let poems = PoemRepository(database: database.sql)
            let profiles = ProfileRepository(database: database.sql)
            let owner = try await profiles.createGuest()
            let stranger = try await profiles.createGuest()
            let poem = try await poems.create(profileID: owner.id, title: "Mine", board: board)
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3, 0, 255]
            #expect(try await poems.setBackground(poemID: poem.id, profileID: stranger.id, kind: .png, bytes: png) == false)
            #expect(try await poems.setBackground(poemID: poem.id, profileID: owner.id, kind: .png, bytes: png))
            #expect(try await poems.background(poemID: poem.id, profileID: owner.id)?.bytes == Data(png))
            #expect(try await poems.background(poemID: poem.id, profileID: stranger.id) == nil)
            #expect(try await poems.find(id: poem.id, profileID: stranger.id) == nil)
            #expect(try await poems.save(id: poem.id, profileID: stranger.id, version: 1, title: "x", board: board)?.poem.id == nil)
            #expect(try await poems.delete(id: poem.id, profileID: stranger.id) == false)
            #expect(try await poems.publish(id: poem.id, profileID: stranger.id) == nil)
            #expect(try await poems.find(id: poem.id, profileID: owner.id)?.hasBackground == true)
            #expect(try await poems.removeBackground(poemID: poem.id, profileID: owner.id))
            #expect(try await poems.background(poemID: poem.id, profileID: owner.id) == nil)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func publishingGivesAStablePublicIdUntilWithdrawn(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { (database: Database) async throws in
            let poems = PoemRepository(database: database.sql)
            let owner = try await ProfileRepository(database: database.sql).createGuest()
            let poem = try await poems.create(profileID: owner.id, title: "Public", board: board)
            let publicId = try #require(try await poems.publish(id: poem.id, profileID: owner.id))
            #expect(try await poems.publish(id: poem.id, profileID: owner.id) == publicId)
            #expect(try await poems.published(publicId: publicId)?.poem.board == board)
            #expect(try await poems.unpublish(id: poem.id, profileID: owner.id))
            #expect(try await poems.published(publicId: publicId) == nil)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func ownWordSetsAreScopedToTheirProfile(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { (database: Database) async throws in
            let sets = WordSetRepository(database: database.sql)
            let profiles = ProfileRepository(database: database.sql)
            let owner = try await profiles.createGuest()
            let stranger = try await profiles.createGuest()
            let set = try await sets.create(profileID: owner.id, name: "Kitchen", words: ["spoon", "🥄"])
            #expect(try await sets.find(id: set.id, profileID: owner.id) == set)
            #expect(try await sets.find(id: set.id, profileID: stranger.id) == nil)
            #expect(try await sets.find(id: "nature", profileID: nil)?.builtIn == true)
            #expect(try await sets.replace(id: set.id, profileID: stranger.id, name: "X", words: ["x"]) == nil)
            #expect(try await sets.replace(id: set.id, profileID: owner.id, name: "Cutlery", words: ["fork"])?.words == ["fork"])
            #expect(try await sets.delete(id: set.id, profileID: stranger.id) == false)
            #expect(try await sets.delete(id: set.id, profileID: owner.id))
            #expect(try await sets.ownSets(profileID: owner.id).isEmpty)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aWordSetEditedOnTwoDevicesKeepsBothChanges(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { (database: Database) async throws in
            let sets = WordSetRepository(database: database.sql)
            let owner = try await ProfileRepository(database: database.sql).createGuest()
            let set = try await sets.create(profileID: owner.id, name: "Kitchen", words: ["spoon", "fork"])
            let opened = (name: set.name, words: set.words)
            // The phone renames the set and adds a word; the laptop, opened before, adds another.
            _ = try await sets.replace(id: set.id, profileID: owner.id, name: "Cooking", words: ["spoon", "fork", "pan"], base: opened)
            let laptop = try await sets.replace(
                id: set.id, profileID: owner.id, name: "Kitchen", words: ["spoon", "fork", "lid"], base: opened)
            #expect(laptop?.name == "Cooking" && laptop?.words == ["spoon", "fork", "pan", "lid"])
            #expect(try await sets.find(id: set.id, profileID: owner.id) == laptop)
            // A merge that breaks a rule writes nothing: here a name another set took meanwhile.
            _ = try await sets.create(profileID: owner.id, name: "Pots", words: ["pot"])
            await #expect(throws: PoetryError.wordSetNameTaken("Pots")) {
                try await sets.replace(id: set.id, profileID: owner.id, name: "Pots", words: ["spoon"], base: opened)
            }
            #expect(try await sets.find(id: set.id, profileID: owner.id) == laptop)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func pronunciationsFindRhymesAlliterationsAndSyllables(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { (database: Database) async throws in
            let repository = PronunciationRepository(database: database.sql)
            #expect(try await repository.isImported() == false)
            let entries = PronouncingDictionary.parse(
                """
                moon M UW1 N
                june JH UW1 N
                spoon S P UW1 N
                macaroon M AE2 K ER0 UW1 N
                mist M IH1 S T
                river R IH1 V ER0
                love L AH1 V
                glove G L AH1 V
                enough IH0 N AH1 F
                was W AH1 Z
                """)
            // "macaroon" is too rare to be offered; "june" is more common than "spoon".
            let frequencies = [
                "moon": 300, "june": 350, "spoon": 420, "mist": 400, "river": 310, "love": 200, "glove": 500, "enough": 250, "was": 10,
            ]
            #expect(try await repository.replaceAll(entries, frequencies: frequencies) == 10)
            #expect(try await repository.rhymes(of: "Moon") == ["june", "spoon"])
            #expect(try await repository.alliterations(of: "moon") == ["mist"])
            #expect(try await repository.syllables(of: ["river", "Moon", "zzz"]) == ["river": 2, "moon": 1])
            #expect(try await repository.rhymes(of: "unknownword") == nil)
            // Few perfect rhymes: near ones follow them, most common first.
            #expect(try await repository.rhymes(of: "love") == ["glove", "was", "enough"])
            #expect(try await repository.replaceAll(entries, frequencies: frequencies) == 10, "importing again replaces, never duplicates")
        }
    }
}
