import CityRoulette
import Foundation
import SQLKit
import Storage

/// The City Roulette part of the account export: the collection in "my order" and recent surprises.
struct CitiesExportSection: ProfileDataSection {
    let store: CityCatalogStore
    let collection: CityCollectionRepository
    let history: SurpriseHistoryRepository
    let key = "cities"

    struct Export: Codable, Sendable {
        struct Entry: Codable, Sendable {
            let geonameid: Int
            let name: String?
            let countryCode: String?
            let favourite: Bool
            let position: Int
            let addedAt: Date

            enum CodingKeys: String, CodingKey {
                case geonameid, name
                case countryCode = "country_code"
                case favourite, position
                case addedAt = "added_at"
            }
        }

        let collection: [Entry]
        let recentSurprises: [[Int]]

        enum CodingKeys: String, CodingKey {
            case collection
            case recentSurprises = "recent_surprises"
        }
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

    /// The collection in its order, with its stars (the recent surprises stay behind: they only steer the next).
    func importData(_ data: Data, profileID: String, on db: any SQLDatabase, report: inout ImportReport) async throws {
        let part = try JSONBody.decoder.decode(Export.self, from: data)
        let cities = part.collection.sorted { $0.position < $1.position }.map {
            CollectedCity(geonameid: $0.geonameid, favourite: $0.favourite)
        }
        report.add("cities", try await CityCollectionRepository(database: db).importCities(cities, profileID: profileID))
    }
}
