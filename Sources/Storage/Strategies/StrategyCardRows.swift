import ObliqueStrategies
import SQLKit

/// Reading cards from rows of `strategy_cards`.
enum StrategyCardRows {
    static let columns = ["id", "edition", "card_number", "text"]

    static func card(_ row: any SQLRow) throws -> StrategyCard {
        StrategyCard(
            id: try row.decode(column: "id", as: Int.self),
            edition: try row.decode(column: "edition", as: Int.self),
            cardNumber: try row.decode(column: "card_number", as: Int.self),
            text: try row.decode(column: "text", as: String.self)
        )
    }

    /// Columns qualified with the cards table, for joins.
    static var qualified: [SQLColumn] { columns.map { SQLColumn($0, table: "strategy_cards") } }
}
