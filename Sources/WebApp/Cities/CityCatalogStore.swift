import CityRoulette
import Foundation
import Logging
import Storage
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Holds the in-memory city catalog (`ReloadableCache`). It is built from the database in the background when the
/// server starts (the first city request waits for it), and rebuilt when another `trove import cities` lands: at
/// most once a minute a request compares the import stamp.
final class CityCatalogStore: Sendable {
    private struct Loaded: Sendable {
        let catalog: CityCatalog
        let state: CityRepository.ImportState?
        /// Which build this is, for what is made once per catalog.
        let build: UUID
    }

    private let cache: ReloadableCache<Loaded>
    /// The map's dots, made once per catalog (the build they were made from).
    private let mapPoints = Mutex<(build: UUID, data: [UInt8], etag: String)?>(nil)

    init(repository: CityRepository, logger: Logger, recheckInterval: TimeInterval = 60) {
        cache = ReloadableCache(recheckInterval: recheckInterval) { loaded in
            let current = try await repository.importState() == loaded.state
            if !current { logger.info("A new city import landed: rebuilding the catalog") }
            return current
        } load: {
            let state = try await repository.importState()
            let catalog = try await Self.build(from: repository, logger: logger)
            returnFreedMemory()
            return Loaded(catalog: catalog, state: state, build: UUID())
        }
    }

    /// The catalog from the database. What it is built from (1.4 million names) is let go when this returns.
    private static func build(from repository: CityRepository, logger: Logger) async throws -> CityCatalog {
        let started = ContinuousClock.now
        let (cities, keys, spellings) = try await repository.allCities()
        let countries = try await repository.allCountries()
        let read = ContinuousClock.now - started
        let catalog = await offEventLoops { CityCatalog(cities: cities, searchKeys: keys, spellings: spellings, countries: countries) }
        logger.info(
            "City catalog ready: \(cities.count) cities, \(countries.count) countries (read in \(read), ready in \(ContinuousClock.now - started))"
        )
        return catalog
    }

    /// Whether a catalog has been built (readiness: until then city requests wait).
    var isBuilt: Bool { cache.isLoaded }

    /// Starts building now rather than at the first request (so `/ready` turns ready without waiting for a city
    /// request). A failure leaves it to the next request.
    func warmUp() { cache.warmUp() }

    func catalog() async throws -> CityCatalog { try await cache.value().catalog }

    /// The import stamp as last read (nil before anything was imported).
    func importState() async throws -> CityRepository.ImportState? { try await cache.value().state }

    /// The map's dots (see `CityCatalog.mapPoints`), made once per catalog, with an ETag naming the import.
    func mapPointData() async throws -> (data: [UInt8], etag: String) {
        let loaded = try await cache.value()
        if let made = mapPoints.withLock({ $0 }), made.build == loaded.build { return (made.data, made.etag) }
        let catalog = loaded.catalog
        let bytes = await offEventLoops { catalog.mapPoints() }
        let stamp = loaded.state?.importedAt.millisecondsSince1970 ?? 0
        let etag = "\"cities-\(stamp)-\(catalog.cities.count)\""
        mapPoints.withLock { $0 = (loaded.build, bytes, etag) }
        return (bytes, etag)
    }
}

/// Hands memory freed inside the allocator back to the system. Building the catalog allocates hundreds of
/// megabytes of short-lived names and rows; glibc keeps much of what is freed in its heaps, where it stays
/// resident. `malloc_trim` is glibc's (Swift's Glibc module does not declare it), so it is looked up.
private func returnFreedMemory() {
    #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    #endif
}
