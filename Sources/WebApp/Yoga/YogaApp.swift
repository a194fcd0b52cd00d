import Hummingbird
import Storage
import YogiYogini

/// YogiYogini: an instructor's roster, venues, the class in session, and past sessions with their statistics.
struct YogaApp: TroveApp {
    typealias DomainError = YogaError
    static let entry = AppEntry(slug: "yoga", name: "YogiYogini", description: "Your students, your classes, where and who came.")
    static let migrations = YogaMigrations.all
    static let templates = ["yoga"]

    let shared: AppServices
    let roster: YogaRosterRepository
    let venues: YogaVenueRepository
    let classes: YogaClassRepository
    let sessions: YogaSessionRepository
    var exportSection: any ProfileDataSection {
        YogaExportSection(roster: roster, venues: venues, classes: classes, sessions: sessions)
    }

    init(_ shared: AppServices) {
        self.shared = shared
        let sql = shared.database.sql
        roster = YogaRosterRepository(database: sql)
        venues = YogaVenueRepository(database: sql)
        classes = YogaClassRepository(database: sql)
        sessions = YogaSessionRepository(database: sql)
    }

    func addRoutes(to routes: AppRoutes) {
        YogaRosterAPIController(roster: roster).addRoutes(to: routes.api)
        YogaVenuesAPIController(
            venues: venues, sessions: sessions, roster: roster, search: makeVenueSearch(shared.configuration.venues)
        ).addRoutes(to: routes.api)
        YogaClassAPIController(classes: classes, venues: venues, roster: roster, sessions: sessions, weather: shared.weather)
            .addRoutes(to: routes.api)
        YogaSessionsAPIController(sessions: sessions, roster: roster, venues: venues).addRoutes(to: routes.api)
        YogaPagesController(pages: shared.pages).addRoutes(to: routes.pages)
    }
}
