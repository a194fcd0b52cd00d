import Accounts
import DatabaseDrivers
import Foundation
import SQLKit
import Storage
import TestSupport
import Testing

/// A guest signing in to an account brings what it made, app by app, on both databases.
@Suite struct GuestMergeTests {
    /// An account and a guest, each with something in every app; some things on both sides.
    struct World {
        let account: String
        let guest: String
        let cards: [Int]
    }

    func makeWorld(_ db: any SQLDatabase) async throws -> World {
        let profiles = ProfileRepository(database: db)
        let account = try await profiles.promote(profileID: try await profiles.createGuest().id, username: "ada", passwordHash: "h").id
        let guest = try await profiles.createGuest().id
        var cards: [Int] = []
        for number in 1...3 {
            try await db.raw(
                """
                INSERT INTO strategy_cards (edition, card_number, text, retired, created_at, updated_at)
                VALUES (1, \(bind: number), \(bind: "Card \(number)"), \(bind: false), 0, 0)
                """
            ).run()
        }
        for row in try await db.raw("SELECT id FROM strategy_cards ORDER BY id").all() {
            cards.append(try row.decode(column: "id", as: Int.self))
        }
        try await db.raw(
            """
            INSERT INTO strategy_cards (edition, card_number, text, owner_profile_id, retired, created_at, updated_at)
            VALUES (0, 1, 'Go for a walk', \(bind: guest), \(bind: false), 0, 0)
            """
        ).run()
        // Favourites: card 0 on both sides, card 1 the guest's only, card 2 the account's only.
        for (profile, card) in [(account, cards[0]), (guest, cards[0]), (guest, cards[1]), (account, cards[2])] {
            try await db.raw(
                "INSERT INTO strategy_favourites (profile_id, card_id, created_at) VALUES (\(bind: profile), \(bind: card), 0)"
            ).run()
            try await db.raw("INSERT INTO strategy_shuffle (profile_id, card_id) VALUES (\(bind: profile), \(bind: card))").run()
        }
        for profile in [guest, guest, account] {
            try await db.raw("INSERT INTO strategy_draws (profile_id, card_id, drawn_at) VALUES (\(bind: profile), \(bind: cards[0]), 1)")
                .run()
        }
        // Poetry: the guest's word set and a published poem.
        try await db.raw(
            """
            INSERT INTO poetry_word_sets (id, profile_id, name, words_json, created_at, updated_at)
            VALUES ('ws-guest', \(bind: guest), 'Mine', '[]', 0, 0)
            """
        ).run()
        for (id, profile, publicID) in [("poem-guest", guest, "pub-guest"), ("poem-account", account, "pub-account")] {
            try await db.raw(
                """
                INSERT INTO poetry_poems (id, profile_id, title, version, board_json, word_set_id, public_id, has_background, created_at, updated_at)
                VALUES (\(bind: id), \(bind: profile), 'A poem', 1, '{}', 'classics', \(bind: publicID), \(bind: false), 0, 0)
                """
            ).run()
        }
        // Cities: 10 on both sides (starred by the guest only), 20 the guest's, 30 the account's.
        for (profile, city, favourite, position) in [
            (account, 10, false, 0), (account, 30, false, 1), (guest, 20, false, 0), (guest, 10, true, 1),
        ] {
            try await db.raw(
                """
                INSERT INTO city_collection (profile_id, geonameid, favourite, position, added_at)
                VALUES (\(bind: profile), \(bind: city), \(bind: favourite), \(bind: position), 0)
                """
            ).run()
        }
        try await db.raw("INSERT INTO city_surprise_history (profile_id, searched_at, geonameids) VALUES (\(bind: guest), 0, '[20]')").run()
        // Stories: the guest published one; both read the account's, the guest later and finding another ending.
        for (id, owner) in [("story-guest", guest), ("story-shared", account)] {
            try await db.raw(
                """
                INSERT INTO stories (id, owner_profile_id, name, story_json, source, created_at, updated_at)
                VALUES (\(bind: id), \(bind: owner), 'A story', '{}', 'upload', 0, 0)
                """
            ).run()
        }
        for profile in [guest, account] {
            try await db.raw("INSERT INTO story_library (profile_id, story_id, added_at) VALUES (\(bind: profile), 'story-shared', 0)")
                .run()
        }
        try await db.raw("INSERT INTO story_library (profile_id, story_id, added_at) VALUES (\(bind: guest), 'story-guest', 0)").run()
        for (profile, path, endings, updated) in [(account, #"["a","b"]"#, #"["end1"]"#, 5), (guest, #"["a","c","d"]"#, #"["end2"]"#, 9)] {
            try await db.raw(
                """
                INSERT INTO story_progress (profile_id, story_id, path, endings_found, updated_at)
                VALUES (\(bind: profile), 'story-shared', \(bind: path), \(bind: endings), \(bind: updated))
                """
            ).run()
        }
        // Yoga: both have a "Member" type (named in other cases), the guest a student of it, a venue,
        // a session with its attendance, settings and a class in session; the account has settings and a class too.
        for (id, profile, name) in [
            ("type-account", account, "member"), ("type-guest", guest, "Member"), ("type-guest-2", guest, "Drop-in"),
        ] {
            try await db.raw(
                "INSERT INTO yoga_student_types (id, profile_id, name, created_at) VALUES (\(bind: id), \(bind: profile), \(bind: name), 0)"
            ).run()
        }
        for (id, type) in [("student-1", "type-guest"), ("student-2", "type-guest-2")] {
            try await db.raw(
                """
                INSERT INTO yoga_students (id, profile_id, name, joined_on, active, type_id, notes, created_at)
                VALUES (\(bind: id), \(bind: guest), \(bind: id), '2026-01-01', \(bind: true), \(bind: type), '', 0)
                """
            ).run()
        }
        try await db.raw(
            """
            INSERT INTO yoga_venues (id, profile_id, name, address, source, favourite, created_at)
            VALUES ('venue-guest', \(bind: guest), 'Loft', '', 'typed', \(bind: false), 0)
            """
        ).run()
        try await db.raw(
            """
            INSERT INTO yoga_sessions (id, profile_id, venue_id, venue_name, venue_address, started_at, ended_at, notes)
            VALUES ('session-guest', \(bind: guest), 'venue-guest', 'Loft', '', 0, 1, 'good class')
            """
        ).run()
        try await db.raw(
            "INSERT INTO yoga_attendance (session_id, student_id, student_name) VALUES ('session-guest', 'student-1', 'student-1')"
        ).run()
        for (profile, unit) in [(account, "F"), (guest, "C")] {
            try await db.raw(
                "INSERT INTO yoga_settings (profile_id, temperature_unit, slipping_weeks) VALUES (\(bind: profile), \(bind: unit), 6)"
            ).run()
            try await db.raw(
                """
                INSERT INTO yoga_classes (profile_id, venue_name, venue_address, started_at, notes, attendee_ids)
                VALUES (\(bind: profile), \(bind: unit), '', 0, '', '[]')
                """
            ).run()
        }
        return World(account: account, guest: guest, cards: cards)
    }

    func count(_ db: any SQLDatabase, _ table: String, _ profile: String, column: String = "profile_id") async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE \(ident: column) = \(bind: profile)").first()?.decode(
            column: "n", as: Int.self) ?? 0
    }

    func ints(_ db: any SQLDatabase, _ sql: SQLQueryString, _ column: String) async throws -> [Int] {
        try await db.raw(sql).all().map { try $0.decode(column: column, as: Int.self) }
    }

    @Test(arguments: DatabaseKind.allCases)
    func everyAppsWorkJoinsTheAccountOnceAndTheGuestIsGone(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let db = database.sql
            let world = try await makeWorld(db)
            let merge = GuestMerge(database: db)
            #expect(
                try await merge.work(of: world.guest).summary
                    == "1 poem, 1 word set, 2 favourite cards, 1 card of your own, 2 drawn cards, 2 cities, 2 stories in your library, "
                    + "1 published story, 2 students and 1 class session")
            try await merge.merge(guestID: world.guest, into: world.account)
            let account = world.account

            #expect(try await ProfileRepository(database: db).find(id: world.guest) == nil)
            // Strategies: favourites and the shuffle united, own card and draws moved.
            #expect(
                try await ints(
                    db, "SELECT card_id FROM strategy_favourites WHERE profile_id = \(bind: account) ORDER BY card_id", "card_id")
                    == world.cards)
            #expect(
                try await ints(db, "SELECT card_id FROM strategy_shuffle WHERE profile_id = \(bind: account) ORDER BY card_id", "card_id")
                    == world.cards)
            #expect(try await count(db, "strategy_cards", account, column: "owner_profile_id") == 1)
            #expect(try await count(db, "strategy_draws", account) == 3)
            // Poetry: the published poem keeps its public link.
            #expect(try await count(db, "poetry_poems", account) == 2)
            #expect(try await count(db, "poetry_word_sets", account) == 1)
            let published = try await db.raw("SELECT profile_id FROM poetry_poems WHERE public_id = 'pub-guest'").first()
            #expect(try published?.decode(column: "profile_id", as: String.self) == account)
            // Cities: 10 once and starred, then the account's 30, then the guest's 20 after it.
            let cities = try await db.raw(
                "SELECT geonameid, favourite FROM city_collection WHERE profile_id = \(bind: account) ORDER BY position"
            ).all()
            #expect(try cities.map { try $0.decode(column: "geonameid", as: Int.self) } == [10, 30, 20])
            #expect(try cities.map { try $0.decode(column: "favourite", as: Bool.self) } == [true, false, false])
            #expect(try await count(db, "city_surprise_history", account) == 1)
            // Stories: the later path, every ending, one library entry per story.
            #expect(try await count(db, "stories", account, column: "owner_profile_id") == 2)
            #expect(try await count(db, "story_library", account) == 2)
            let progress = try #require(try await StoryRepository(database: db).progress(storyID: "story-shared", profileID: account))
            #expect(progress.0.path == ["a", "c", "d"])
            #expect(Set(progress.0.endingsFound) == ["end1", "end2"])
            // Yoga: "Member" is the account's "member"; the rest moves; the account keeps its settings and class.
            let types = try await db.raw("SELECT id FROM yoga_student_types WHERE profile_id = \(bind: account) ORDER BY id").all()
            #expect(try types.map { try $0.decode(column: "id", as: String.self) } == ["type-account", "type-guest-2"])
            let student = try await db.raw("SELECT type_id FROM yoga_students WHERE id = 'student-1'").first()
            #expect(try student?.decode(column: "type_id", as: String.self) == "type-account")
            #expect(try await count(db, "yoga_students", account) == 2)
            #expect(try await count(db, "yoga_venues", account) == 1)
            #expect(try await count(db, "yoga_sessions", account) == 1)
            let attendance = try await db.raw("SELECT COUNT(*) AS n FROM yoga_attendance WHERE session_id = 'session-guest'").first()
            #expect(try attendance?.decode(column: "n", as: Int.self) == 1)
            let settings = try await db.raw("SELECT temperature_unit FROM yoga_settings WHERE profile_id = \(bind: account)").all()
            #expect(try settings.map { try $0.decode(column: "temperature_unit", as: String.self) } == ["F"])
            let classes = try await db.raw("SELECT venue_name FROM yoga_classes WHERE profile_id = \(bind: account)").all()
            #expect(try classes.map { try $0.decode(column: "venue_name", as: String.self) } == ["F"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aPoemOpenedAndNeverWrittenIsNobodysWork(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let db = database.sql
            let guest = try await ProfileRepository(database: db).createGuest().id
            let blank = #"{"word_set_id":"classics","font":"serif","font_scale":1.1,"magnets":[],"extra_words":[]}"#
            let written = #"{"word_set_id":"classics","font":"serif","font_scale":1.1,"magnets":[{"id":"m","word":"we"}],"extra_words":[]}"#
            for (id, title, board) in [
                ("blank", "Untitled poem", blank), ("titled", "Night", blank), ("written", "Untitled poem", written),
            ] {
                try await db.raw(
                    """
                    INSERT INTO poetry_poems (id, profile_id, title, version, board_json, word_set_id, has_background, created_at, updated_at)
                    VALUES (\(bind: id), \(bind: guest), \(bind: title), 1, \(bind: board), 'classics', \(bind: false), 0, 0)
                    """
                ).run()
                let counted = try await GuestMerge(database: db).work(of: guest).items.first { $0.kind == "poems" }?.count ?? 0
                #expect(counted == (id == "blank" ? 0 : id == "titled" ? 1 : 2), "after \(id)")
            }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aMergeInterruptedHalfWayLosesNothingAndAgainDoublesNothing(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let db = database.sql
            let world = try await makeWorld(db)
            struct PowerCut: Error {}
            let cut = GuestMerge.Step(name: "power cut") { _, _, _ in throw PowerCut() }
            let steps = GuestMerge.steps
            let interrupted = GuestMerge(database: db, steps: Array(steps[..<3]) + [cut] + Array(steps[3...]))
            await #expect(throws: PowerCut.self) { try await interrupted.merge(guestID: world.guest, into: world.account) }
            // Nothing moved: the guest still has all of it, the account only its own.
            #expect(try await count(db, "strategy_favourites", world.guest) == 2)
            #expect(try await count(db, "poetry_poems", world.guest) == 1)
            #expect(try await count(db, "city_collection", world.guest) == 2)
            #expect(try await count(db, "city_collection", world.account) == 2)
            #expect(try await ProfileRepository(database: db).find(id: world.guest) != nil)

            let merge = GuestMerge(database: db)
            try await merge.merge(guestID: world.guest, into: world.account)
            try await merge.merge(guestID: world.guest, into: world.account)
            #expect(try await count(db, "strategy_favourites", world.account) == 3)
            #expect(try await count(db, "strategy_draws", world.account) == 3)
            #expect(try await count(db, "poetry_poems", world.account) == 2)
            #expect(try await count(db, "city_collection", world.account) == 3)
            #expect(try await count(db, "yoga_sessions", world.account) == 1)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func anAccountIsNeverMergedAway(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let db = database.sql
            let world = try await makeWorld(db)
            let profiles = ProfileRepository(database: db)
            let other = try await profiles.promote(profileID: try await profiles.createGuest().id, username: "grace", passwordHash: "h").id
            try await GuestMerge(database: db).merge(guestID: world.account, into: other)
            try await GuestMerge(database: db).merge(guestID: world.account, into: world.account)
            #expect(try await profiles.find(id: world.account)?.username == "ada")
            #expect(try await count(db, "poetry_poems", world.account) == 1)
            #expect(try await count(db, "poetry_poems", other) == 0)
        }
    }
}
