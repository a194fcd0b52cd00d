import Foundation
import ObliqueStrategies
import SQLKit
import Storage

/// The Oblique Strategies part of the account export: favourites, own cards and draw history.
struct StrategiesExportSection: ProfileDataSection {
    let profiles: StrategyProfileRepository
    let key = "strategies"

    struct Export: Codable, Sendable {
        let favourites: [StrategyCard]
        let ownCards: [StrategyCard]
        let history: [DrawJSON]

        enum CodingKeys: String, CodingKey {
            case favourites
            case ownCards = "own_cards"
            case history
        }
    }

    func export(profileID: String) async throws -> any Encodable & Sendable {
        Export(
            favourites: try await profiles.favourites(profileID: profileID),
            ownCards: try await profiles.ownCards(profileID: profileID),
            history: try await profiles.history(profileID: profileID).map(DrawJSON.init)
        )
    }

    /// Own cards get new ids; a deck card is found here by its edition and words.
    func importData(_ data: Data, profileID: String, on db: any SQLDatabase, report: inout ImportReport) async throws {
        let part = try JSONBody.decoder.decode(Export.self, from: data)
        let profiles = StrategyProfileRepository(database: db)
        var own: [Int: Int] = [:]
        for card in part.ownCards {
            own[card.id] = try await profiles.createOwnCard(profileID: profileID, text: card.text).id
        }
        report.add("own_cards", own.count)
        func here(_ card: StrategyCard) async throws -> Int? {
            if card.isOwn { return own[card.id] }
            return try await db.select().column("id").from("strategy_cards").where("edition", .equal, card.edition)
                .where("text", .equal, card.text).where("owner_profile_id", .is, SQLLiteral.null).first()?
                .decode(column: "id", as: Int.self)
        }
        for card in part.favourites {
            if let id = try await here(card) {
                try await profiles.setFavourite(profileID: profileID, cardID: id)
                report.add("favourite_cards")
            } else {
                report.skipped.append("The favourite card “\(card.text)” is not in this server's deck.")
            }
        }
        var missing = 0
        for entry in part.history.sorted(by: { $0.drawn_at < $1.drawn_at }) {
            guard let id = try await here(entry.card) else {
                missing += 1
                continue
            }
            try await profiles.importDraw(profileID: profileID, cardID: id, at: entry.drawn_at, note: entry.note)
            report.add("draws")
        }
        if missing > 0 { report.skipped.append("\(missing) drawn card(s) not in this server's deck were left out of the history.") }
    }
}
