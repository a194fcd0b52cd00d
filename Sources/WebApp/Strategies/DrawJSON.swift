import Foundation
import ObliqueStrategies
import Storage

/// One draw of a profile's history, as the API answers it (and as the account export keeps it).
struct DrawJSON: Codable, Sendable, APIAnswer {
    let id: Int
    let card: StrategyCard
    let drawn_at: Date
    let note: String?

    init(_ entry: StrategyProfileRepository.HistoryEntry) {
        id = entry.id
        card = entry.card
        drawn_at = entry.drawnAt
        note = entry.note
    }
}
