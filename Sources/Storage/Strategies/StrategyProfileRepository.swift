import DatabaseDrivers
import Foundation
import ObliqueStrategies
import SQLKit

/// A profile's own things in the Oblique Strategies app: favourites, own cards, draw history and shuffle memory.
/// Every query is scoped to the profile; another profile's rows are simply not found.
public struct StrategyProfileRepository: Sendable {
    let database: any SQLDatabase
    public static let historyLength = 50

    public init(database: any SQLDatabase) {
        self.database = database
    }

    // MARK: Favourites

    public func setFavourite(profileID: String, cardID: Int, at date: Date = Date()) async throws {
        try await database.insert(into: "strategy_favourites")
            .columns("profile_id", "card_id", "created_at")
            .values(SQLBind(profileID), SQLBind(cardID), SQLBind(date.millisecondsSince1970))
            .ignoringConflicts(with: ["profile_id", "card_id"])
            .run()
    }

    public func removeFavourite(profileID: String, cardID: Int) async throws {
        try await database.delete(from: "strategy_favourites")
            .where("profile_id", .equal, profileID).where("card_id", .equal, cardID).run()
    }

    /// The profile's favourites, newest first.
    public func favourites(profileID: String) async throws -> [StrategyCard] {
        try await database.select().columns(StrategyCardRows.qualified).from("strategy_favourites")
            .join(
                "strategy_cards", on: SQLColumn("card_id", table: "strategy_favourites"), .equal, SQLColumn("id", table: "strategy_cards")
            )
            .where(SQLColumn("profile_id", table: "strategy_favourites"), .equal, SQLBind(profileID))
            .orderBy(SQLColumn("created_at", table: "strategy_favourites"), SQLDirection.descending)
            .orderBy(SQLColumn("card_id", table: "strategy_favourites"), SQLDirection.descending)
            .all().map(StrategyCardRows.card)
    }

    /// The most favourited published cards across all profiles, with their counts.
    public func popular(limit: Int = 20) async throws -> [(card: StrategyCard, favourites: Int)] {
        let count = SQLFunction("COUNT", args: SQLColumn("profile_id", table: "strategy_favourites"))
        var query = database.select().columns(StrategyCardRows.qualified).column(count, as: "favourites")
            .from("strategy_favourites")
            .join(
                "strategy_cards", on: SQLColumn("card_id", table: "strategy_favourites"), .equal, SQLColumn("id", table: "strategy_cards")
            )
            .where(SQLColumn("owner_profile_id", table: "strategy_cards"), .is, SQLLiteral.null)
        for column in StrategyCardRows.qualified { query = query.groupBy(column) }
        return try await query.orderBy(SQLIdentifier("favourites"), SQLDirection.descending)
            .orderBy(SQLColumn("edition", table: "strategy_cards")).orderBy(SQLColumn("card_number", table: "strategy_cards"))
            .limit(limit).all()
            .map { (try StrategyCardRows.card($0), try $0.decode(column: "favourites", as: Int.self)) }
    }

    // MARK: Own cards

    public func ownCards(profileID: String) async throws -> [StrategyCard] {
        try await database.select().columns(StrategyCardRows.columns).from("strategy_cards")
            .where("owner_profile_id", .equal, profileID).orderBy("card_number").all().map(StrategyCardRows.card)
    }

    public func createOwnCard(profileID: String, text: String, at date: Date = Date()) async throws -> StrategyCard {
        try await database.transaction { db in
            let highest = try await db.select().column(SQLFunction("MAX", args: SQLColumn("card_number")), as: "highest")
                .from("strategy_cards").where("owner_profile_id", .equal, profileID)
                .first()?.decode(column: "highest", as: Int?.self)
            let number = (highest ?? 0) + 1
            let row = try await db.insert(into: "strategy_cards")
                .columns("edition", "card_number", "text", "owner_profile_id", "retired", "created_at", "updated_at")
                .values(
                    SQLBind(StrategyCard.ownEdition), SQLBind(number), SQLBind(text), SQLBind(profileID), SQLBind(false),
                    SQLBind(date.millisecondsSince1970), SQLBind(date.millisecondsSince1970)
                )
                .returning("id").first()
            let id = try row?.decode(column: "id", as: Int.self) ?? 0
            return StrategyCard(id: id, edition: StrategyCard.ownEdition, cardNumber: number, text: text)
        }
    }

    /// Changes the text of the profile's own card; nil when the profile has no such card.
    public func updateOwnCard(profileID: String, id: Int, text: String, at date: Date = Date()) async throws -> StrategyCard? {
        try await database.update("strategy_cards").set("text", to: text).set("updated_at", to: date.millisecondsSince1970)
            .where("id", .equal, id).where("owner_profile_id", .equal, profileID)
            .returning(StrategyCardRows.columns.map { SQLColumn($0) })
            .first().map(StrategyCardRows.card)
    }

    /// Deletes the profile's own card; false when it has no such card.
    public func deleteOwnCard(profileID: String, id: Int) async throws -> Bool {
        let rows = try await database.delete(from: "strategy_cards")
            .where("id", .equal, id).where("owner_profile_id", .equal, profileID)
            .returning("id").all()
        return !rows.isEmpty
    }

    // MARK: History

    public struct HistoryEntry: Sendable, Equatable {
        public let id: Int
        public let card: StrategyCard
        public let drawnAt: Date
        public let note: String?
    }

    /// Records a draw; the database keeps only the profile's latest `historyLength` (a trigger: migrations 1001 and 1002).
    public func recordDraw(profileID: String, cardID: Int, at date: Date = Date()) async throws {
        try await Self.insertDraw.run([profileID, cardID, date.millisecondsSince1970], on: database)
    }

    /// A draw from an imported history (an account export), with its note, as it was drawn.
    public func importDraw(profileID: String, cardID: Int, at date: Date, note: String?) async throws {
        try await database.insert(into: "strategy_draws").columns("profile_id", "card_id", "drawn_at", "note")
            .values(SQLBind(profileID), SQLBind(cardID), SQLBind(date.millisecondsSince1970), SQLBind(note)).run()
    }

    static let insertDraw = PreparedQuery(isRead: false) { database, values in
        database.insert(into: "strategy_draws").columns("profile_id", "card_id", "drawn_at").values(values).insert
    }

    public func history(profileID: String) async throws -> [HistoryEntry] {
        try await historyQuery(profileID: profileID)
            .orderBy(SQLColumn("drawn_at", table: "strategy_draws"), SQLDirection.descending)
            .orderBy(SQLColumn("id", table: "strategy_draws"), SQLDirection.descending)
            .limit(Self.historyLength).all().map(Self.entry)
    }

    /// Sets or clears the note of one of the profile's draws; nil when it has no such draw. With `was` (the note as
    /// the writing device last saw it), a note changed meanwhile is kept beside this one (`CardText.note(sent:over:current:)`).
    public func setNote(profileID: String, entryID: Int, note: String?, over was: String?? = nil) async throws -> HistoryEntry? {
        let found = try await database.transaction { db -> Bool in
            var kept = note
            if let was {
                guard
                    let row = try await db.select().column("note").from("strategy_draws")
                        .where("id", .equal, entryID).where("profile_id", .equal, profileID).first()
                else { return false }
                kept = CardText.note(sent: note, over: was, current: try row.decode(column: "note", as: String?.self))
            }
            let updated = try await db.update("strategy_draws").set("note", to: kept)
                .where("id", .equal, entryID).where("profile_id", .equal, profileID)
                .returning("id").all()
            return !updated.isEmpty
        }
        guard found else { return nil }
        return try await historyQuery(profileID: profileID)
            .where(SQLColumn("id", table: "strategy_draws"), .equal, SQLBind(entryID)).first().map(Self.entry)
    }

    private func historyQuery(profileID: String) -> SQLSelectBuilder {
        database.select().columns(StrategyCardRows.qualified)
            .column(SQLColumn("id", table: "strategy_draws"), as: "entry_id")
            .column(SQLColumn("drawn_at", table: "strategy_draws"))
            .column(SQLColumn("note", table: "strategy_draws"))
            .from("strategy_draws")
            .join("strategy_cards", on: SQLColumn("card_id", table: "strategy_draws"), .equal, SQLColumn("id", table: "strategy_cards"))
            .where(SQLColumn("profile_id", table: "strategy_draws"), .equal, SQLBind(profileID))
    }

    private static func entry(_ row: any SQLRow) throws -> HistoryEntry {
        HistoryEntry(
            id: try row.decode(column: "entry_id", as: Int.self),
            card: try StrategyCardRows.card(row),
            drawnAt: Date(millisecondsSince1970: try row.decode(column: "drawn_at", as: Int64.self)),
            note: try row.decode(column: "note", as: String?.self)
        )
    }

    // MARK: Shuffle

    /// Ids drawn in the profile's current shuffle round.
    public func shuffleDrawn(profileID: String) async throws -> Set<Int> {
        Set(
            try await database.select().column("card_id").from("strategy_shuffle").where("profile_id", .equal, profileID)
                .all().map { try $0.decode(column: "card_id", as: Int.self) })
    }

    /// Records a shuffle draw; `newRound` first forgets the cards of `set`, which were all drawn.
    public func recordShuffleDraw(profileID: String, cardID: Int, newRound set: [Int]?) async throws {
        try await database.transaction { db in
            if let set, !set.isEmpty {
                try await db.delete(from: "strategy_shuffle").where("profile_id", .equal, profileID)
                    .where("card_id", .in, SQLBind.group(set)).run()
            }
            try await db.insert(into: "strategy_shuffle").columns("profile_id", "card_id")
                .values(SQLBind(profileID), SQLBind(cardID))
                .ignoringConflicts(with: ["profile_id", "card_id"]).run()
        }
    }

    public func resetShuffle(profileID: String) async throws {
        try await database.delete(from: "strategy_shuffle").where("profile_id", .equal, profileID).run()
    }
}
