import Accounts
import DatabaseDrivers
import Foundation
import Hummingbird
import HummingbirdCore
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
        let applied = try await Migrator(database: database.sql, migrations: TroveApps.migrations).migrate()
        if !applied.isEmpty { logger.info("Applied \(applied.count) migration(s)") }
        await DataSetNotice.log(TroveApps.all.flatMap { $0.dataSets }, database: database.sql, logger: logger)
        let router = try await buildRouter(configuration, database: database, logger: logger)
        return Application(
            router: router,
            server: httpServer,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "trove"),
            services: [
                DatabaseCloser(database: database),
                Housekeeping(
                    sessions: SessionRepository(database: database.sql), profiles: ProfileRepository(database: database.sql),
                    idempotencyKeys: IdempotencyRepository(database: database.sql),
                    devices: KnownDeviceRepository(database: database.sql),
                    guestContent: TroveApps.all.flatMap { $0.guestContent }, logger: logger
                ),
            ],
            logger: logger
        )
    } catch {
        await database.shutdown()
        throw error
    }
}

/// HTTP/1.1 with a connection closed after 30 s without a whole request part: an idle keep-alive connection, or a
/// request's head sent a byte at a time, holds a socket that long at most.
let httpServer: HTTPServerBuilder = .http1(configuration: .init(idleTimeout: .seconds(30)))

/// Builds an application on a database the caller opened, migrated and will close (tests use this).
public func buildApplication(_ configuration: AppConfiguration, database: Database) async throws -> some ApplicationProtocol {
    let logger = makeLogger(configuration)
    let router = try await buildRouter(configuration, database: database, logger: logger)
    return Application(
        router: router,
        server: httpServer,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "trove"),
        logger: logger
    )
}

/// The router of every route, with `apps` (every app of Trove, unless a test brings its own).
func buildRouter(
    _ configuration: AppConfiguration, database: Database, logger: Logger, apps appTypes: [any TroveApp.Type] = TroveApps.all
) async throws -> Router<TroveRequestContext> {
    let resources = try resourcesDirectory()
    let assets = try StaticAssets(directory: resources.appendingPathComponent("Public"))
    let pages = try await PageRenderer(
        directory: resources.appendingPathComponent("Templates").path, more: appTypes.compactMap { $0.templateDirectory },
        assetVersion: assets.version,
        required: PageRenderer.shellTemplates + appTypes.flatMap { $0.templates }, apps: appTypes.map { $0.entry })
    let profiles = ProfileRepository(database: database.sql)
    let sessionStore = SessionStore(
        profiles: profiles, sessions: SessionRepository(database: database.sql), lifetime: configuration.sessionLifetimeSeconds
    )

    // HEAD answers as GET without the body (uptime monitors and link checkers use it).
    let router = Router(context: TroveRequestContext.self, options: .autoGenerateHeadEndpoints)
    let routeMethods = RouteMethods()
    // Middleware applies only to routes added after it, so it comes first.
    router.add(
        middleware: RequestPipeline(
            records: RequestRecords(accessLog: configuration.accessLog ? AccessLog(format: configuration.logFormat) : nil),
            compression: ResponseCompression(),
            sessions: ProfileSessions(store: sessionStore, alwaysSecure: configuration.secureCookies),
            idempotency: IdempotentRequests(keys: IdempotencyRepository(database: database.sql)),
            errors: ErrorResponses(pages: pages, routeMethods: routeMethods, sessions: sessionStore)))

    let shared = AppServices(
        configuration: configuration, database: database, pages: pages, logger: logger,
        // One weather cache for City Roulette and YogiYogini.
        weather: WeatherCache(
            provider: makeWeatherProvider(configuration.weather), breakerPause: configuration.weather.breakerPauseSeconds),
        resources: resources)
    var apps: [any TroveApp] = []
    for type in appTypes {
        let app = try await type.init(shared)
        app.addRoutes(to: AppRoutes(slug: type.entry.slug, router: router))
        apps.append(app)
    }

    HealthController(database: database, checks: apps.flatMap(\.readiness)).addRoutes(to: router)
    // Each app's part of the account export and import.
    let sections = apps.map(\.exportSection)
    let merge = GuestMerge(database: database.sql)
    AccountAPIController(
        profiles: profiles,
        failures: SignInFailureRepository(database: database.sql),
        devices: KnownDeviceRepository(database: database.sql),
        hasher: PasswordHasher(cost: configuration.passwordHashCost),
        merge: merge,
        throttle: SignInThrottle(),
        trustedProxies: configuration.trustedProxies,
        secureCookies: configuration.secureCookies,
        exporter: ProfileExporter(sections: sections),
        importer: ProfileImporter(database: database.sql, sections: sections, merge: merge)
    ).addRoutes(to: router.group("/api/v1/account"))
    try OpenAPIController(documentURL: resources.appendingPathComponent("APIDocument/openapi.json")).addRoutes(to: router)
    AccountPagesController(pages: pages).addRoutes(to: router)
    MetricsController(token: configuration.metricsToken).addRoutes(to: router)
    ShellController(pages: pages, assets: assets).addRoutes(to: router)
    routeMethods.load(router.routes.map { ("\($0.path)", $0.method.rawValue) })
    return router
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
