import CityRoulette
import Foundation
import Logging
import Storage

/// Holds the in-memory city catalog. It is built from the database in the background when the server
/// starts (the first city request waits for it), and rebuilt when another `trove import cities` lands:
/// at most once a minute a request checks the import stamp.
actor CityCatalogStore {
    private let repository: CityRepository
    private let logger: Logger
    private let recheckInterval: TimeInterval
    private var loading: Task<(CityCatalog, CityRepository.ImportState?), any Error>?
    private var loaded: (catalog: CityCatalog, state: CityRepository.ImportState?)?
    private var checkedAt = Date.distantPast
    /// The map's dots, made once per catalog.
    private var mapPoints: (data: [UInt8], etag: String)?

    init(repository: CityRepository, logger: Logger, recheckInterval: TimeInterval = 60) {
        self.repository = repository
        self.logger = logger
        self.recheckInterval = recheckInterval
    }

    /// Whether a catalog has been built (readiness: until then city requests wait).
    var isBuilt: Bool { loaded != nil }

    /// Starts loading now rather than at the first request, and keeps the result when it is built (so
    /// `/ready` turns ready without waiting for a city request). A failure leaves it to the next request.
    func warmUp() {
        _ = startLoading()
        Task { _ = try? await self.catalog() }
    }

    func catalog() async throws -> CityCatalog {
        if let loaded, Date().timeIntervalSince(checkedAt) < recheckInterval {
            return loaded.catalog
        }
        if let loaded, loading == nil {
            checkedAt = Date()
            let state = try await repository.importState()
            if state == loaded.state { return loaded.catalog }
            logger.info("A new city import landed: rebuilding the catalog")
        }
        let task = startLoading()
        do {
            let (catalog, state) = try await task.value
            if loading == task {
                loaded = (catalog, state)
                loading = nil
                mapPoints = nil
                checkedAt = Date()
            }
            return catalog
        } catch {
            if loading == task { loading = nil }
            throw error
        }
    }

    /// The import stamp as last read (nil before anything was imported).
    func importState() async throws -> CityRepository.ImportState? {
        _ = try await catalog()
        return loaded?.state
    }

    /// The map's dots (see `CityCatalog.mapPoints`), made once per catalog, with an ETag naming the import.
    func mapPointData() async throws -> (data: [UInt8], etag: String) {
        let catalog = try await catalog()
        if let mapPoints { return mapPoints }
        let bytes = await offEventLoops { catalog.mapPoints() }
        let stamp = loaded?.state?.importedAt.millisecondsSince1970 ?? 0
        let result = (bytes, "\"cities-\(stamp)-\(catalog.cities.count)\"")
        mapPoints = result
        return result
    }

    private func startLoading() -> Task<(CityCatalog, CityRepository.ImportState?), any Error> {
        if let loading { return loading }
        let repository = repository
        let logger = logger
        let task = Task {
            let started = ContinuousClock.now
            let state = try await repository.importState()
            let (cities, keys) = try await repository.allCities()
            let countries = try await repository.allCountries()
            let read = ContinuousClock.now - started
            let catalog = await offEventLoops { CityCatalog(cities: cities, searchKeys: keys, countries: countries) }
            logger.info(
                "City catalog ready: \(cities.count) cities, \(countries.count) countries (read in \(read), ready in \(ContinuousClock.now - started))"
            )
            return (catalog, state)
        }
        loading = task
        return task
    }
}
