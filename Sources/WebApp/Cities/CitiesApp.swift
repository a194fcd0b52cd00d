import CityRoulette
import Hummingbird
import Providers
import Storage
import Weather

/// City Roulette: the GeoNames catalog, a collection per profile, Surprise Me, the weather and the basemap.
struct CitiesApp: TroveApp {
    typealias DomainError = CityError
    static let entry = AppEntry(slug: "cities", name: "City Roulette", description: "Collect the world's cities, with their weather.")
    static let migrations = CityMigrations.all
    static let templates = ["cities", "city", "country"]
    static let dataSets = [
        ImportedDataSet(
            name: "GeoNames' cities", command: "trove import cities", without: "City Roulette finds no cities", table: "cities"),
        ImportedDataSet(
            name: "the offline basemap", command: "trove import basemap",
            without: "City Roulette's map shows no land or borders where the street map cannot be fetched", table: "city_basemaps"),
    ]

    let shared: AppServices
    let store: CityCatalogStore
    let cities: CityRepository
    let collection: CityCollectionRepository
    let history: SurpriseHistoryRepository
    let articles: CityArticleCache
    var exportSection: any ProfileDataSection { CitiesExportSection(store: store, collection: collection, history: history) }
    var readiness: [ReadinessCheck] { [ReadinessCheck(name: "city_catalog") { [store] in store.isBuilt }] }

    init(_ shared: AppServices) async {
        self.shared = shared
        let sql = shared.database.sql
        cities = CityRepository(database: sql)
        store = CityCatalogStore(repository: cities, logger: shared.logger)
        store.warmUp()
        collection = CityCollectionRepository(database: sql)
        history = SurpriseHistoryRepository(database: sql)
        let fetcher = JSONFetcher(timeout: .seconds(3), maximumBytes: 256 << 10)
        articles = CityArticleCache(source: WikipediaArticles(baseURL: shared.configuration.wikipediaURL, fetcher: fetcher))
    }

    func addRoutes(to routes: AppRoutes) {
        CitiesAPIController(
            store: store, cities: cities, collection: collection, history: history, weather: shared.weather,
            basemaps: BasemapRepository(database: shared.database.sql), articles: articles
        ).addRoutes(to: routes.api)
        CityCollectionAPIController(store: store, collection: collection).addRoutes(to: routes.api)
        CitiesPagesController(pages: shared.pages, store: store, collection: collection, tileURL: shared.configuration.mapTileURL)
            .addRoutes(to: routes.pages)
    }
}
