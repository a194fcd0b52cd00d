import CardImage
import Hummingbird
import ObliqueStrategies
import Storage

/// Oblique Strategies: the deck, draws, favourites, own cards, history, and the Monks-compatible API.
struct StrategiesApp: TroveApp {
    typealias DomainError = StrategyError
    static let entry = AppEntry(
        slug: "strategies", name: "Oblique Strategies", description: "Draw one of Eno and Schmidt's cards to get unstuck.")
    static let migrations = StrategyMigrations.all
    static let templates = ["strategies", "strategy-card"]
    static let dataSets = [
        ImportedDataSet(
            name: "the Oblique Strategies deck", command: "trove import strategies", without: "there are no cards to draw",
            table: "strategy_sections")
    ]

    let api: StrategiesAPIController
    let profileAPI: StrategiesProfileAPIController
    let pages: PageRenderer
    let deckRepository: StrategyDeckRepository
    let exportSection: any ProfileDataSection
    let renderer: CardRenderer

    init(_ shared: AppServices) throws {
        let sql = shared.database.sql
        deckRepository = StrategyDeckRepository(database: sql)
        let profiles = StrategyProfileRepository(database: sql)
        let deck = PublishedDeck(repository: deckRepository)
        api = StrategiesAPIController(deck: deck, deckRepository: deckRepository, profiles: profiles)
        profileAPI = StrategiesProfileAPIController(deck: deck, deckRepository: deckRepository, profiles: profiles)
        pages = shared.pages
        renderer = CardRenderer(atlas: try GlyphAtlas.bundled())
        exportSection = StrategiesExportSection(profiles: profiles)
    }

    func addRoutes(to routes: AppRoutes) {
        profileAPI.addRoutes(to: routes.api)
        api.addRoutes(to: routes.api)
        LegacyObliqueAPIController(deck: api.deck).addRoutes(to: routes.router.group("/api/oblique"))
        StrategiesPagesController(pages: pages, api: api).addRoutes(to: routes.pages)
        CardPreviewController(api: api, deckRepository: deckRepository, renderer: renderer, cache: CardPreviewCache())
            .addRoutes(to: routes.pages)
    }
}
