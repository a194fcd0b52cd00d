import CityRoulette
import Foundation
import Hummingbird
import Storage

/// `/api/v1/cities/collection…`: the profile's own cities. Import adds with replace; save makes equal (keeping, given
/// the collection the scene was opened on, what changed elsewhere since).
struct CityCollectionAPIController {
    let store: CityCatalogStore
    let collection: CityCollectionRepository

    /// `api`: the group at `/api/v1/cities`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get("collection", use: list)
            .put("collection", use: save)
            .post("collection/import", use: importCities)
            .get("collection.geojson", use: geoJSON)
            .get("collection.csv", use: csv)
        api.withProfile("collection/{geonameid}/favourite", otherwise: CityError.notInCollection)
            .put(use: star)
            .delete(use: unstar)
    }

    struct CollectionAnswer: APIAnswer {
        let cities: [CityJSON]
    }

    @Sendable func list(_ request: Request, context: TroveRequestContext) async throws -> CollectionAnswer {
        CollectionAnswer(cities: try await collectionJSON(context))
    }

    struct ImportAnswer: APIAnswer {
        let imported: Int
        let count: Int
    }

    @Sendable func importCities(_ request: Request, context: TroveRequestContext) async throws -> ImportAnswer {
        let body = try await JSONBody.decode(CollectionBody.self, from: request)
        let catalog = try await store.catalog()
        try catalog.requireKnown(body.cities.map(\.geonameid))
        let profile = try await context.session.requireProfile()
        let count = try await collection.importCities(body.collected, profileID: profile.id)
        return ImportAnswer(imported: Set(body.cities.map(\.geonameid)).count, count: count)
    }

    @Sendable func save(_ request: Request, context: TroveRequestContext) async throws -> CollectionAnswer {
        // The largest collection with its base is about 800 KB.
        let body = try await JSONBody.decode(CollectionBody.self, from: request, limit: 2 << 20)
        let catalog = try await store.catalog()
        try catalog.requireKnown(body.cities.map(\.geonameid))
        let profile = try await context.session.requireProfile()
        let entries = try await collection.save(body.collected, base: body.collectedBase, profileID: profile.id)
        return CollectionAnswer(cities: catalog.collectionJSON(entries))
    }

    @Sendable func star(_ request: Request, context: ProfileRequestContext) async throws -> CityJSON {
        try await setFavourite(true, context)
    }

    @Sendable func unstar(_ request: Request, context: ProfileRequestContext) async throws -> CityJSON {
        try await setFavourite(false, context)
    }

    private func setFavourite(_ favourite: Bool, _ context: ProfileRequestContext) async throws -> CityJSON {
        let id = try context.parameters.requireID("geonameid")
        guard let entry = try await collection.setFavourite(favourite, geonameid: id, profileID: context.profile.id) else {
            throw CityError.notInCollection
        }
        let catalog = try await store.catalog()
        guard let json = catalog.collectionJSON([entry]).first else { throw CityError.notInCollection }
        return json
    }

    @Sendable func geoJSON(_ request: Request, context: TroveRequestContext) async throws -> Response {
        let cities = try await collectionJSON(context)
        let data = try JSONResponse.encoder.encode(CollectionExport.geoJSON(cities))
        return Download.response(ByteBuffer(bytes: data), type: "application/geo+json", filename: "my-cities.geojson")
    }

    @Sendable func csv(_ request: Request, context: TroveRequestContext) async throws -> Response {
        Download.response(
            ByteBuffer(string: CollectionExport.csv(try await collectionJSON(context))), type: "text/csv; charset=utf-8",
            filename: "my-cities.csv")
    }

    private func collectionJSON(_ context: TroveRequestContext) async throws -> [CityJSON] {
        guard let profile = context.session.profile else { return [] }
        let entries = try await collection.list(profileID: profile.id)
        return try await store.catalog().collectionJSON(entries)
    }
}
