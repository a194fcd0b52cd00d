import Foundation
import ObliqueStrategies
import Storage
import Synchronization

/// The published deck held in memory (a few hundred cards) with its editions, so draws, lists and the
/// page need no query. It is re-read at most every `maximumAge` seconds, so an import by
/// `trove import strategies` shows up on running servers without a restart.
///
/// Reading the snapshot takes a lock, not an actor hop: with an actor, 64 concurrent page views queued
/// behind one another and a few waited over a second.
final class PublishedDeck: Sendable {
    private let repository: StrategyDeckRepository
    private let maximumAge: TimeInterval
    private let state = Mutex<State>(State())

    private struct State {
        var snapshot: Snapshot?
        /// The reload in progress: requests arriving meanwhile wait for it instead of reading the deck again.
        var loading: Task<Snapshot, any Error>?
    }

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

        /// The cards of `edition`, or all; an edition a loaded deck does not have is `editionNotFound`, not an empty deck.
        func cards(ofKnownEdition edition: Int?) throws -> [StrategyCard] {
            if let edition, byEdition[edition] == nil, !cards.isEmpty {
                throw StrategyError.editionNotFound(edition)
            }
            return cards(edition: edition)
        }
    }

    init(repository: StrategyDeckRepository, maximumAge: TimeInterval = 30) {
        self.repository = repository
        self.maximumAge = maximumAge
    }

    private enum Step {
        case ready(Snapshot)
        case wait(Task<Snapshot, any Error>)
    }

    func current(now: Date = Date()) async throws -> Snapshot {
        let repository = repository
        let maximumAge = maximumAge
        let step: Step = state.withLock { state in
            if let snapshot = state.snapshot, now.timeIntervalSince(snapshot.loadedAt) < maximumAge { return .ready(snapshot) }
            if let loading = state.loading { return .wait(loading) }
            let task = Task {
                Snapshot(cards: try await repository.publishedCards(), sections: try await repository.sections(), loadedAt: now)
            }
            state.loading = task
            return .wait(task)
        }
        let loading: Task<Snapshot, any Error>
        switch step {
        case .ready(let snapshot): return snapshot
        case .wait(let task): loading = task
        }
        do {
            let snapshot = try await loading.value
            state.withLock { state in
                if state.snapshot.map({ $0.loadedAt < snapshot.loadedAt }) ?? true { state.snapshot = snapshot }
                state.loading = nil
            }
            return snapshot
        } catch {
            state.withLock { $0.loading = nil }
            throw error
        }
    }
}
