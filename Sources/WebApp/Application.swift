import Accounts
import CardImage
import DatabaseDrivers
import Foundation
import Hummingbird
import Logging
import Providers
import ServiceLifecycle
import Storage
import Weather
import YogiYogini

/// Builds the whole server: opens the configured database, applies pending migrations, and wires every app.
/// `trove serve` calls this; the database closes when the application shuts down.
public func buildApplication(_ configuration: AppConfiguration) async throws -> some ApplicationProtocol {
    let logger = makeLogger(configuration)
    // Before anything makes a metric (the database's query timers among them), or that metric counts nowhere.
    Telemetry.start()
    let database = try await Database.open(configuration.database, logger: logger)
    do {
        let applied = try await Migrator(database: database.sql).migrate()
        if !applied.isEmpty { logger.info("Applied \(applied.count) migration(s)") }
        let parts = try await buildRouter(configuration, database: database, logger: logger)
        return Application(
            router: parts.router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "trove"),
            services: [
                DatabaseCloser(database: database),
                Housekeeping(
                    sessions: SessionRepository(database: database.sql), profiles: ProfileRepository(database: database.sql),
                    idempotencyKeys: IdempotencyRepository(database: database.sql), logger: logger
                ),
            ],
            logger: logger
        )
    } catch {
        await database.shutdown()
        throw error
    }
}

/// Builds an application on a database the caller opened, migrated and will close (tests use this).
public func buildApplication(_ configuration: AppConfiguration, database: Database) async throws -> some ApplicationProtocol {
    let logger = makeLogger(configuration)
    let parts = try await buildRouter(configuration, database: database, logger: logger)
    return Application(
        router: parts.router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "trove"),
        logger: logger
    )
}

/// The router and the list of API operations it holds (for the OpenAPI document test).
public func buildRouter(
    _ configuration: AppConfiguration, database: Database, logger: Logger
) async throws -> (router: Router<TroveRequestContext>, operations: APIOperationLog) {
    let resources = try resourcesDirectory()
    let assets = try StaticAssets(directory: resources.appendingPathComponent("Public"))
    let pages = try await PageRenderer(directory: resources.appendingPathComponent("Templates").path, assetVersion: assets.version)
    let profiles = ProfileRepository(database: database.sql)
    let sessionStore = SessionStore(
        profiles: profiles, sessions: SessionRepository(database: database.sql), lifetime: configuration.sessionLifetimeSeconds
    )

    // HEAD answers as GET without the body (uptime monitors and link checkers use it).
    let router = Router(context: TroveRequestContext.self, options: .autoGenerateHeadEndpoints)
    // Middleware applies only to routes added after it, so it all comes first. Outermost first.
    if configuration.accessLog { router.add(middleware: LogRequestsMiddleware(.info)) }
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: CompressionMiddleware())
    let routeMethods = RouteMethods()
    router.add(middleware: ErrorMiddleware(pages: pages, routeMethods: routeMethods, sessions: sessionStore))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: CrossSiteRequestMiddleware())
    router.add(middleware: ProfileSessionMiddleware(store: sessionStore, alwaysSecure: configuration.secureCookies))
    router.add(middleware: IdempotencyMiddleware(keys: IdempotencyRepository(database: database.sql)))

    let operations = APIOperationLog()
    let api = APIRoutes(router: router, log: operations)

    // Oblique Strategies
    let deckRepository = StrategyDeckRepository(database: database.sql)
    let strategyProfiles = StrategyProfileRepository(database: database.sql)
    let deck = PublishedDeck(repository: deckRepository)
    let strategiesAPI = StrategiesAPIController(deck: deck, deckRepository: deckRepository, profiles: strategyProfiles)
    StrategiesProfileAPIController(deck: deck, deckRepository: deckRepository, profiles: strategyProfiles).addRoutes(to: api)
    strategiesAPI.addRoutes(to: api)
    LegacyObliqueAPIController(deck: deck).addRoutes(to: api)
    StrategiesPagesController(pages: pages, api: strategiesAPI).addRoutes(to: router)
    CardPreviewController(
        api: strategiesAPI, deckRepository: deckRepository, renderer: CardRenderer(atlas: try GlyphAtlas.bundled()),
        cache: CardPreviewCache()
    ).addRoutes(to: router)

    // Magnetic Poetry
    let wordSets = WordSetRepository(database: database.sql)
    let poems = PoemRepository(database: database.sql)
    WordSetsAPIController(wordSets: wordSets, poems: poems).addRoutes(to: api)
    PoemsAPIController(poems: poems, wordSets: wordSets).addRoutes(to: api)
    WordHelpersAPIController(pronunciations: PronunciationRepository(database: database.sql)).addRoutes(to: api)
    PoetryPagesController(pages: pages, poems: poems).addRoutes(to: router)

    // City Roulette
    let cityRepository = CityRepository(database: database.sql)
    let cityStore = CityCatalogStore(repository: cityRepository, logger: logger)
    await cityStore.warmUp()
    let cityCollection = CityCollectionRepository(database: database.sql)
    let surpriseHistory = SurpriseHistoryRepository(database: database.sql)
    // One weather cache for City Roulette and YogiYogini.
    let weather = WeatherCache(
        provider: makeWeatherProvider(configuration.weather), breakerPause: configuration.weather.breakerPauseSeconds)
    CitiesAPIController(
        store: cityStore, cities: cityRepository, collection: cityCollection, history: surpriseHistory, weather: weather,
        basemaps: BasemapRepository(database: database.sql)
    ).addRoutes(to: api)
    CityCollectionAPIController(store: cityStore, collection: cityCollection).addRoutes(to: api)
    CitiesPagesController(pages: pages, store: cityStore, collection: cityCollection, tileURL: configuration.mapTileURL).addRoutes(
        to: router)

    // YogiYogini
    let roster = YogaRosterRepository(database: database.sql)
    let yogaVenues = YogaVenueRepository(database: database.sql)
    let yogaClasses = YogaClassRepository(database: database.sql)
    let yogaSessions = YogaSessionRepository(database: database.sql)
    YogaRosterAPIController(roster: roster).addRoutes(to: api)
    YogaVenuesAPIController(venues: yogaVenues, sessions: yogaSessions, roster: roster, search: makeVenueSearch(configuration.venues))
        .addRoutes(to: api)
    YogaClassAPIController(classes: yogaClasses, venues: yogaVenues, roster: roster, sessions: yogaSessions, weather: weather).addRoutes(
        to: api)
    YogaSessionsAPIController(sessions: yogaSessions, roster: roster, venues: yogaVenues).addRoutes(to: api)
    YogaPagesController(pages: pages).addRoutes(to: router)

    // Choose Your Destiny
    let stories = StoryRepository(database: database.sql)
    let storySchema = try Data(contentsOf: resources.appendingPathComponent("APIDocument/story.schema.json"))
    StoriesAPIController(stories: stories, schema: ByteBuffer(bytes: storySchema)).addRoutes(to: api)
    StoryPlayAPIController(stories: stories).addRoutes(to: api)
    StoriesPagesController(pages: pages, stories: stories).addRoutes(to: router)

    HealthController(database: database, cities: cityStore).addRoutes(to: api)
    // Each app's part of the account export and import.
    let sections: [any ProfileDataSection] = [
        StrategiesExportSection(profiles: strategyProfiles),
        PoetryExportSection(wordSets: wordSets, poems: poems),
        CitiesExportSection(store: cityStore, collection: cityCollection, history: surpriseHistory),
        YogaExportSection(roster: roster, venues: yogaVenues, classes: yogaClasses, sessions: yogaSessions),
        StoriesExportSection(stories: stories),
    ]
    let merge = GuestMerge(database: database.sql)
    AccountAPIController(
        profiles: profiles,
        failures: SignInFailureRepository(database: database.sql),
        hasher: PasswordHasher(cost: configuration.passwordHashCost),
        merge: merge,
        throttle: SignInThrottle(),
        trustedProxies: configuration.trustedProxies,
        exporter: ProfileExporter(sections: sections),
        importer: ProfileImporter(database: database.sql, sections: sections, merge: merge)
    ).addRoutes(to: api)
    try OpenAPIController(documentURL: resources.appendingPathComponent("APIDocument/openapi.json")).addRoutes(to: router)
    AccountPagesController(pages: pages).addRoutes(to: router)
    MetricsController().addRoutes(to: router)
    ShellController(pages: pages, assets: assets, builtApps: ["strategies", "poetry", "cities", "yoga", "stories"]).addRoutes(to: router)
    routeMethods.load(router.routes.map { ("\($0.path)", $0.method.rawValue) })
    return (router, operations)
}

/// OpenWeatherMap when a key is configured, Open-Meteo (no key) otherwise.
func makeWeatherProvider(_ settings: WeatherSettings) -> any WeatherProvider {
    let fetcher = JSONFetcher(timeout: .milliseconds(Int64(settings.timeoutSeconds * 1000)), maximumBytes: 256 << 10)
    if let key = settings.openWeatherMapKey, !key.isEmpty {
        return OpenWeatherMapWeather(baseURL: settings.openWeatherMapURL, key: key, fetcher: fetcher)
    }
    return OpenMeteoWeather(baseURL: settings.openMeteoURL, fetcher: fetcher)
}

/// Foursquare when a key is configured, OpenStreetMap's Overpass (no key) otherwise.
func makeVenueSearch(_ settings: VenueSettings) -> any VenueSearch {
    let fetcher = JSONFetcher(timeout: .milliseconds(Int64(settings.timeoutSeconds * 1000)), maximumBytes: 1 << 20)
    if let key = settings.foursquareKey, !key.isEmpty {
        return FoursquareVenues(baseURL: settings.foursquareURL, key: key, fetcher: fetcher)
    }
    return OverpassVenues(baseURL: settings.overpassURL, fetcher: fetcher)
}

/// Where Templates/, Public/ and APIDocument/ are: the package's resource bundle.
func resourcesDirectory() throws -> URL {
    guard let url = Bundle.module.resourceURL else { throw MissingResources() }
    return url
}

struct MissingResources: Error, CustomStringConvertible {
    var description: String { "The server's resources (templates, static files) are missing: reinstall or rebuild Trove." }
}

func makeLogger(_ configuration: AppConfiguration) -> Logger {
    var logger = Logger(label: "trove")
    logger.logLevel = configuration.logLevel
    return logger
}

/// Closes the database once the server has stopped.
struct DatabaseCloser: Service {
    let database: Database

    func run() async throws {
        try? await gracefulShutdown()
        await database.shutdown()
    }
}
