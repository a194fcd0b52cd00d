import Foundation
import ObliqueStrategies
import SQLKit

/// The published deck: cards of the editions and extra sections, read by everyone.
public struct StrategyDeckRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public struct Section: Sendable, Equatable {
        public let edition: Int
        public let label: String
        public let count: Int
    }

    /// Every published card in use, ordered by edition and card number.
    public func publishedCards() async throws -> [StrategyCard] {
        try await database.select().columns(StrategyCardRows.columns).from("strategy_cards")
            .where("owner_profile_id", .is, SQLLiteral.null)
            .where("retired", .equal, false)
            .orderBy("edition").orderBy("card_number")
            .all().map(StrategyCardRows.card)
    }

    /// A card by id: any published card (retired ones too, so old favourites and links still open),
    /// or an own card of `profileID`. Someone else's own card is not found.
    public func card(id: Int, visibleTo profileID: String?) async throws -> StrategyCard? {
        try await database.select().columns(StrategyCardRows.columns).from("strategy_cards")
            .where("id", .equal, id)
            .where { group in
                var group = group.where("owner_profile_id", .is, SQLLiteral.null)
                if let profileID { group = group.orWhere("owner_profile_id", .equal, profileID) }
                return group
            }
            .first().map(StrategyCardRows.card)
    }

    public func sections() async throws -> [Section] {
        let rows = try await database.select()
            .column(SQLColumn("edition", table: "strategy_sections"))
            .column(SQLColumn("name", table: "strategy_sections"))
            .column(SQLFunction("COUNT", args: SQLColumn("id", table: "strategy_cards")), as: "count")
            .from("strategy_sections")
            .join(
                "strategy_cards", method: SQLJoinMethod.inner,
                on: SQLBinaryExpression(
                    SQLColumn("edition", table: "strategy_cards"), .equal, SQLColumn("edition", table: "strategy_sections"))
            )
            .where(SQLColumn("retired", table: "strategy_cards"), .equal, SQLBind(false))
            .where(SQLColumn("owner_profile_id", table: "strategy_cards"), .is, SQLLiteral.null)
            .groupBy(SQLColumn("edition", table: "strategy_sections"))
            .groupBy(SQLColumn("name", table: "strategy_sections"))
            .orderBy(SQLColumn("edition", table: "strategy_sections"))
            .all()
        return try rows.map {
            let edition = try $0.decode(column: "edition", as: Int.self)
            return Section(
                edition: edition,
                label: EditionLabel.label(edition: edition, name: try $0.decode(column: "name", as: String.self)),
                count: try $0.decode(column: "count", as: Int.self))
        }
    }
}
