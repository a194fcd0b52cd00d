import ObliqueStrategies
import Storage

/// The Oblique Strategies part of the account export: favourites, own cards and draw history.
struct StrategiesExportSection: ProfileDataSection {
    let profiles: StrategyProfileRepository
    let key = "strategies"

    struct Export: Encodable, Sendable {
        let favourites: [StrategyCard]
        let ownCards: [StrategyCard]
        let history: [StrategyProfileRepository.HistoryEntry]
    }

    func export(profileID: String) async throws -> any Encodable & Sendable {
        Export(
            favourites: try await profiles.favourites(profileID: profileID),
            ownCards: try await profiles.ownCards(profileID: profileID),
            history: try await profiles.history(profileID: profileID)
        )
    }
}
