import Foundation
import Storage

/// The City Roulette part of the account export: the collection in "my order" and recent surprises.
struct CitiesExportSection: ProfileDataSection {
    let store: CityCatalogStore
    let collection: CityCollectionRepository
    let history: SurpriseHistoryRepository
    let key = "cities"

    struct Export: Encodable, Sendable {
        struct Entry: Encodable, Sendable {
            let geonameid: Int
            let name: String?
            let countryCode: String?
            let favourite: Bool
            let position: Int
            let addedAt: Date
        }

        let collection: [Entry]
        let recentSurprises: [[Int]]
    }

    func export(profileID: String) async throws -> any Encodable & Sendable {
        let entries = try await collection.list(profileID: profileID)
        // The export must not fail because the catalog cannot load: names are a courtesy.
        let catalog = try? await store.catalog()
        return Export(
            collection: entries.map { entry in
                let city = catalog?.city(id: entry.geonameid)
                return .init(
                    geonameid: entry.geonameid, name: city?.name, countryCode: city?.countryCode,
                    favourite: entry.favourite, position: entry.position, addedAt: entry.addedAt)
            },
            recentSurprises: try await history.recent(profileID: profileID, limit: 10)
        )
    }
}
