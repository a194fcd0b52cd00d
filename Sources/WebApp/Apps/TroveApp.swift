import DatabaseDrivers
import Foundation
import Hummingbird
import Logging
import Storage
import Weather

/// One of Trove's apps as the server sees it: everything the app adds to Trove, in one value. Each app adopts it in
/// one file of its own (`Poetry/PoetryApp.swift`, …), and `TroveApps.all` lists them: the routes, the migrations,
/// the templates checked at start, the home page, the account export, the guest clean-up and `/ready` all derive
/// from that list, so nothing central names an app. docs/ADDING_AN_APP.md is the recipe.
protocol TroveApp: Sendable {
    /// Its domain errors, each with its HTTP answer beside the app's controllers (so none becomes a 500).
    associatedtype DomainError: HTTPMappedError
    /// Its card on the home page; `slug` is its first path segment (`/poetry`, `/api/v1/poetry`).
    static var entry: AppEntry { get }
    /// Its schema steps (in Storage), applied with every other app's in one order (see `Migration`).
    static var migrations: [Migration] { get }
    /// The templates its pages render (`Templates/`), checked when the server starts.
    static var templates: [String] { get }
    /// A folder of its own templates, beside `Templates/` (for an app built outside this module).
    static var templateDirectory: URL? { get }
    /// SQL conditions on an abandoned guest profile `p` that keep it: content of the guest's that others may be
    /// reading (a published poem's link). See `ProfileRepository.deleteAbandonedGuests`.
    static var guestContent: [String] { get }
    /// The data sets a `trove import …` loads that it reads; the server names any that is missing when it starts.
    static var dataSets: [ImportedDataSet] { get }

    /// Builds the app from what the apps share.
    init(_ shared: AppServices) async throws
    /// Its part of the account export and import.
    var exportSection: any ProfileDataSection { get }
    /// What `/ready` waits for, by name (the city catalog built); most apps have nothing.
    var readiness: [ReadinessCheck] { get }
    /// Its API and its pages, in the groups at its own paths (every API operation is documented in openapi.json).
    func addRoutes(to routes: AppRoutes)
}

extension TroveApp {
    static var templateDirectory: URL? { nil }
    static var guestContent: [String] { [] }
    static var dataSets: [ImportedDataSet] { [] }
    var readiness: [ReadinessCheck] { [] }
}

/// A condition `/ready` waits for, named in its answer.
struct ReadinessCheck: Sendable {
    let name: String
    let isReady: @Sendable () async -> Bool
}

/// What the apps share, made once by `buildRouter`.
struct AppServices: Sendable {
    let configuration: AppConfiguration
    let database: Database
    let pages: PageRenderer
    let logger: Logger
    /// One weather cache for every app that shows the weather (City Roulette and YogiYogini).
    let weather: WeatherCache
    /// Templates/, Public/ and APIDocument/.
    let resources: URL
}

/// Trove's apps.
public enum TroveApps {
    /// Every app, in the home page's order: the one list the rest is derived from.
    static let all: [any TroveApp.Type] = [StrategiesApp.self, YogaApp.self, StoriesApp.self, PoetryApp.self, CitiesApp.self]

    /// Every migration, Trove's own (accounts) and each app's, in the order they apply.
    public static var migrations: [Migration] { migrations(of: all) }

    static func migrations(of apps: [any TroveApp.Type]) -> [Migration] {
        (Migrations.core + apps.flatMap { $0.migrations }).sorted { $0.version < $1.version }
    }
}
