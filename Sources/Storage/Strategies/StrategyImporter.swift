import Foundation
import ObliqueStrategies
import SQLKit

/// Loads deck sections into the database in one transaction, updating in place (see `DeckSync`), so running it
/// twice changes nothing and a newer file keeps every favourite.
public struct StrategyImporter: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public struct Report: Sendable, Equatable {
        public var inserted = 0
        public var updated = 0
        public var retired = 0
        public var unchanged = 0
        public var sections: [String] = []
    }

    public func importSections(_ sections: [DeckSection], now: Date = Date()) async throws -> Report {
        try await database.transaction { db in
            var report = Report()
            for section in sections {
                let edition = try await Self.edition(for: section, on: db)
                let stored = try await db.select().columns("id", "card_number", "text", "retired").from("strategy_cards")
                    .where("edition", .equal, edition).where("owner_profile_id", .is, SQLLiteral.null)
                    .all()
                    .map {
                        DeckSync.StoredCard(
                            id: try $0.decode(column: "id", as: Int.self), cardNumber: try $0.decode(column: "card_number", as: Int.self),
                            text: try $0.decode(column: "text", as: String.self), retired: try $0.decode(column: "retired", as: Bool.self)
                        )
                    }
                let plan = DeckSync.plan(stored: stored, incoming: section.cards)
                for update in plan.updates {
                    try await db.update("strategy_cards")
                        .set("card_number", to: update.cardNumber).set("text", to: update.text)
                        .set("retired", to: false).set("updated_at", to: now.millisecondsSince1970)
                        .where("id", .equal, update.id).run()
                }
                for id in plan.retire {
                    try await db.update("strategy_cards").set("retired", to: true).set("updated_at", to: now.millisecondsSince1970)
                        .where("id", .equal, id).run()
                }
                for insert in plan.inserts {
                    try await db.insert(into: "strategy_cards")
                        .columns("edition", "card_number", "text", "retired", "created_at", "updated_at")
                        .values(
                            SQLBind(edition), SQLBind(insert.cardNumber), SQLBind(insert.text), SQLBind(false),
                            SQLBind(now.millisecondsSince1970), SQLBind(now.millisecondsSince1970)
                        )
                        .run()
                }
                report.inserted += plan.inserts.count
                report.updated += plan.updates.count
                report.retired += plan.retire.count
                report.unchanged += plan.unchanged
                report.sections.append(section.name)
            }
            return report
        }
    }

    /// The edition number of a section: N for "Edition N"; for an extra section, the number it was given when
    /// first imported, or the next free one from 100.
    static func edition(for section: DeckSection, on db: any SQLDatabase) async throws -> Int {
        if let row = try await db.select().column("edition").from("strategy_sections").where("name", .equal, section.name).first() {
            return try row.decode(column: "edition", as: Int.self)
        }
        let edition: Int
        if let number = section.editionNumber {
            edition = number
        } else {
            let highest = try await db.select().column(SQLFunction("MAX", args: SQLColumn("edition")), as: "highest")
                .from("strategy_sections").where("edition", .greaterThanOrEqual, DeckSection.firstExtraEdition)
                .first()?.decode(column: "highest", as: Int?.self)
            edition = (highest ?? DeckSection.firstExtraEdition - 1) + 1
        }
        try await db.insert(into: "strategy_sections").columns("edition", "name")
            .values(SQLBind(edition), SQLBind(section.name)).run()
        return edition
    }
}
