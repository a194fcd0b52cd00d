import Foundation
import ObliqueStrategies
import Storage

/// The published deck held in memory (a few hundred cards) with its editions, so draws, lists and the
/// page need no query. It is read again at most every `maximumAge` seconds (`ReloadableCache`), so an import by
/// `trove import strategies` shows up on running servers without a restart.
final class PublishedDeck: Sendable {
    private let cache: ReloadableCache<Snapshot>

    struct Snapshot: Sendable {
        let cards: [StrategyCard]
        /// The editions with their names and card counts.
        let sections: [StrategyDeckRepository.Section]
        let byEdition: [Int: [StrategyCard]]
        let byID: [Int: StrategyCard]

        init(cards: [StrategyCard], sections: [StrategyDeckRepository.Section] = []) {
            self.cards = cards
            self.sections = sections
            self.byEdition = Dictionary(grouping: cards, by: \.edition)
            self.byID = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }

        func cards(edition: Int?) -> [StrategyCard] {
            guard let edition else { return cards }
            return byEdition[edition] ?? []
        }

        /// The cards of `edition`, or all; an edition a loaded deck does not have is `editionNotFound`, not an empty deck.
        func cards(ofKnownEdition edition: Int?) throws -> [StrategyCard] {
            if let edition, byEdition[edition] == nil, !cards.isEmpty {
                throw StrategyError.editionNotFound(edition)
            }
            return cards(edition: edition)
        }
    }

    init(repository: StrategyDeckRepository, maximumAge: TimeInterval = 30) {
        cache = ReloadableCache(recheckInterval: maximumAge) {
            Snapshot(cards: try await repository.publishedCards(), sections: try await repository.sections())
        }
    }

    func current(now: Date = Date()) async throws -> Snapshot {
        try await cache.value(now: now)
    }
}
