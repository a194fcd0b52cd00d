import Foundation
import ObliqueStrategies
import Storage

/// The published deck held in memory (a few hundred cards) with its editions, so draws, lists and the
/// page need no query.
/// It is re-read at most every `maximumAge` seconds, so an import by `trove import strategies` shows up
/// on running servers without a restart.
actor PublishedDeck {
    private let repository: StrategyDeckRepository
    private let maximumAge: TimeInterval
    private var snapshot: Snapshot?

    struct Snapshot: Sendable {
        let cards: [StrategyCard]
        /// The editions with their names and card counts.
        let sections: [StrategyDeckRepository.Section]
        let byEdition: [Int: [StrategyCard]]
        let byID: [Int: StrategyCard]
        let loadedAt: Date

        init(cards: [StrategyCard], sections: [StrategyDeckRepository.Section] = [], loadedAt: Date) {
            self.cards = cards
            self.sections = sections
            self.byEdition = Dictionary(grouping: cards, by: \.edition)
            self.byID = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            self.loadedAt = loadedAt
        }

        func cards(edition: Int?) -> [StrategyCard] {
            guard let edition else { return cards }
            return byEdition[edition] ?? []
        }
    }

    init(repository: StrategyDeckRepository, maximumAge: TimeInterval = 30) {
        self.repository = repository
        self.maximumAge = maximumAge
    }

    func current(now: Date = Date()) async throws -> Snapshot {
        if let snapshot, now.timeIntervalSince(snapshot.loadedAt) < maximumAge { return snapshot }
        let fresh = Snapshot(cards: try await repository.publishedCards(), sections: try await repository.sections(), loadedAt: now)
        snapshot = fresh
        return fresh
    }
}
