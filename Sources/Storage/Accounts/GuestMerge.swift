import Accounts
import Foundation
import MagneticPoetry
import SQLKit

/// Moves what a guest made into an account when the guest signs in to it, then deletes the guest.
///
/// Everything runs in one transaction: an interrupted merge leaves both profiles as they were, and merging
/// again moves everything once. Where the same thing exists on both sides one copy stays (a favourite, a
/// collected city, a library entry); the account keeps its settings and its class in session; reading
/// progress keeps the later path and every ending found on either side.
public struct GuestMerge: Sendable {
    /// One app's part of the merge, run inside the transaction.
    public struct Step: Sendable {
        public let name: String
        public let run: @Sendable (_ db: any SQLDatabase, _ guest: String, _ account: String) async throws -> Void

        public init(name: String, run: @escaping @Sendable (any SQLDatabase, String, String) async throws -> Void) {
            self.name = name
            self.run = run
        }
    }

    let database: any SQLDatabase
    let steps: [Step]

    public init(database: any SQLDatabase, steps: [Step] = GuestMerge.steps) {
        self.database = database
        self.steps = steps
    }

    public static let steps: [Step] = [strategies, poetry, cities, stories, yoga]

    /// Moves `guestID`'s records into `accountID` and deletes the guest. Does nothing when `guestID` is not
    /// a guest (an account is never merged away) or is the account itself.
    public func merge(guestID: String, into accountID: String) async throws {
        guard guestID != accountID else { return }
        let steps = steps
        try await database.transaction { db in
            let guest = try await db.select().column("id").from("profiles")
                .where("id", .equal, guestID).where("username", .is, SQLLiteral.null).first()
            guard guest != nil else { return }
            for step in steps { try await step.run(db, guestID, accountID) }
            try await db.delete(from: "profiles").where("id", .equal, guestID).run()
        }
    }

    /// What the guest has made, counted by kind, for the sign-in page.
    public func work(of guestID: String) async throws -> GuestWork {
        func count(_ table: String, _ column: String = "profile_id", unless blank: String = "FALSE") async throws -> Int {
            let row = try await database.raw(
                "SELECT COUNT(*) AS n FROM \(ident: table) WHERE \(ident: column) = \(bind: guestID) AND NOT (\(unsafeRaw: blank))"
            ).first()
            return try row?.decode(column: "n", as: Int.self) ?? 0
        }
        return GuestWork(items: [
            .init(kind: "poems", count: try await count("poetry_poems", unless: Self.blankPoem), singular: "poem", plural: "poems"),
            .init(kind: "word_sets", count: try await count("poetry_word_sets"), singular: "word set", plural: "word sets"),
            .init(
                kind: "favourite_cards", count: try await count("strategy_favourites"), singular: "favourite card",
                plural: "favourite cards"),
            .init(
                kind: "own_cards", count: try await count("strategy_cards", "owner_profile_id"), singular: "card of your own",
                plural: "cards of your own"),
            .init(kind: "draws", count: try await count("strategy_draws"), singular: "drawn card", plural: "drawn cards"),
            .init(kind: "cities", count: try await count("city_collection"), singular: "city", plural: "cities"),
            .init(
                kind: "stories", count: try await count("story_library"), singular: "story in your library",
                plural: "stories in your library"),
            .init(
                kind: "published_stories", count: try await count("stories", "owner_profile_id"), singular: "published story",
                plural: "published stories"),
            .init(kind: "students", count: try await count("yoga_students"), singular: "student", plural: "students"),
            .init(kind: "sessions", count: try await count("yoga_sessions"), singular: "class session", plural: "class sessions"),
        ])
    }
}

extension GuestMerge {
    /// A poem opened and never written: the Poetry page makes one on a first visit, and it is nobody's work (it made a
    /// new account "not empty" for an import, and a guest was told it would join their account).
    static let blankPoem = """
        title = '\(PoetryText.untitled)' AND board_json LIKE '%"magnets":[]%' AND board_json LIKE '%"extra_words":[]%' \
        AND public_id IS NULL AND NOT has_background
        """
}

// MARK: The apps' steps

extension GuestMerge {
    /// Own cards and the draw history move; favourites and the shuffle's dealt cards are united.
    static let strategies = Step(name: "strategies") { db, guest, account in
        try await move(db, "strategy_cards", column: "owner_profile_id", guest, account)
        try await unite(db, "strategy_favourites", key: "card_id", guest, account)
        try await unite(db, "strategy_shuffle", key: "card_id", guest, account)
        try await move(db, "strategy_draws", guest, account)
    }

    /// Word sets and poems move with their ids, so a published poem's link keeps working.
    static let poetry = Step(name: "poetry") { db, guest, account in
        try await move(db, "poetry_word_sets", guest, account)
        try await move(db, "poetry_poems", guest, account)
    }

    /// Collections are united: a city on both sides stays once, starred if either starred it; the guest's
    /// other cities follow the account's in the guest's order.
    static let cities = Step(name: "cities") { db, guest, account in
        try await db.raw(
            """
            UPDATE city_collection SET favourite = \(bind: true)
            WHERE profile_id = \(bind: account) AND geonameid IN
                (SELECT geonameid FROM city_collection WHERE profile_id = \(bind: guest) AND favourite = \(bind: true))
            """
        ).run()
        let last = try await db.raw("SELECT MAX(position) AS last FROM city_collection WHERE profile_id = \(bind: account)")
            .first()?.decode(column: "last", as: Int?.self)
        try await dropShared(db, "city_collection", key: "geonameid", guest, account)
        try await db.raw(
            """
            UPDATE city_collection SET profile_id = \(bind: account), position = position + \(bind: (last ?? -1) + 1)
            WHERE profile_id = \(bind: guest)
            """
        ).run()
        try await move(db, "city_surprise_history", guest, account)
    }

    /// Published stories move; libraries are united; progress on a story read on both sides keeps the later
    /// path and every ending found on either.
    static let stories = Step(name: "stories") { db, guest, account in
        try await move(db, "stories", column: "owner_profile_id", guest, account)
        try await unite(db, "story_library", key: "story_id", guest, account)
        let shared = try await db.raw(
            """
            SELECT g.story_id AS story_id, g.path AS guest_path, g.endings_found AS guest_endings, g.updated_at AS guest_updated,
                   a.path AS account_path, a.endings_found AS account_endings, a.updated_at AS account_updated
            FROM story_progress g JOIN story_progress a ON a.story_id = g.story_id AND a.profile_id = \(bind: account)
            WHERE g.profile_id = \(bind: guest)
            """
        ).all()
        for row in shared {
            let guestNewer = try row.decode(column: "guest_updated", as: Int64.self) > row.decode(column: "account_updated", as: Int64.self)
            let path = try row.decode(column: guestNewer ? "guest_path" : "account_path", as: String.self)
            var endings = StoryRepository.list(try row.decode(column: "account_endings", as: String.self))
            for ending in StoryRepository.list(try row.decode(column: "guest_endings", as: String.self)) where !endings.contains(ending) {
                endings.append(ending)
            }
            let updated = try max(
                row.decode(column: "guest_updated", as: Int64.self), row.decode(column: "account_updated", as: Int64.self))
            try await db.update("story_progress")
                .set("path", to: path).set("endings_found", to: StoryRepository.text(endings)).set("updated_at", to: updated)
                .where("profile_id", .equal, account).where("story_id", .equal, try row.decode(column: "story_id", as: String.self))
                .run()
        }
        try await dropShared(db, "story_progress", key: "story_id", guest, account)
        try await move(db, "story_progress", guest, account)
    }

    /// The roster, venues and sessions move. A student type named like one of the account's (any case) is
    /// that type: its students join it. The account keeps its settings and its class in session.
    static let yoga = Step(name: "yoga") { db, guest, account in
        try await db.raw(
            """
            UPDATE yoga_students SET type_id = (
                SELECT MIN(a.id) FROM yoga_student_types a JOIN yoga_student_types g ON LOWER(a.name) = LOWER(g.name)
                WHERE a.profile_id = \(bind: account) AND g.id = yoga_students.type_id)
            WHERE profile_id = \(bind: guest) AND type_id IN (
                SELECT g.id FROM yoga_student_types g JOIN yoga_student_types a ON LOWER(a.name) = LOWER(g.name)
                WHERE g.profile_id = \(bind: guest) AND a.profile_id = \(bind: account))
            """
        ).run()
        try await db.raw(
            """
            DELETE FROM yoga_student_types WHERE profile_id = \(bind: guest) AND LOWER(name) IN
                (SELECT LOWER(name) FROM yoga_student_types WHERE profile_id = \(bind: account))
            """
        ).run()
        try await move(db, "yoga_student_types", guest, account)
        try await move(db, "yoga_students", guest, account)
        try await move(db, "yoga_venues", guest, account)
        try await move(db, "yoga_sessions", guest, account)
        for table in ["yoga_settings", "yoga_classes"] {
            try await db.raw(
                """
                DELETE FROM \(ident: table) WHERE profile_id = \(bind: guest)
                AND EXISTS (SELECT 1 FROM \(ident: table) WHERE profile_id = \(bind: account))
                """
            ).run()
            try await move(db, table, guest, account)
        }
    }

    // MARK: Building blocks

    /// Gives every row of the guest to the account.
    static func move(_ db: any SQLDatabase, _ table: String, column: String = "profile_id", _ guest: String, _ account: String) async throws
    {
        try await db.update(table).set(column, to: account).where(column, .equal, guest).run()
    }

    /// Deletes the guest's rows whose `key` the account has too.
    static func dropShared(_ db: any SQLDatabase, _ table: String, key: String, _ guest: String, _ account: String) async throws {
        try await db.raw(
            """
            DELETE FROM \(ident: table) WHERE profile_id = \(bind: guest)
            AND \(ident: key) IN (SELECT \(ident: key) FROM \(ident: table) WHERE profile_id = \(bind: account))
            """
        ).run()
    }

    /// A set keyed by (profile, `key`): the union stays with the account.
    static func unite(_ db: any SQLDatabase, _ table: String, key: String, _ guest: String, _ account: String) async throws {
        try await dropShared(db, table, key: key, guest, account)
        try await move(db, table, guest, account)
    }
}
