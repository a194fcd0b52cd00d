import Hummingbird
import MagneticPoetry
import Storage

/// Magnetic Poetry: word sets, poems on their boards, word helpers, and published poems.
struct PoetryApp: TroveApp {
    typealias DomainError = PoetryError
    static let entry = AppEntry(slug: "poetry", name: "Magnetic Poetry", description: "Drag word magnets into a poem.")
    static let migrations = PoetryMigrations.all
    static let templates = ["poetry", "poetry-public"]
    static let dataSets = [
        ImportedDataSet(
            name: "the pronunciation dictionary", command: "trove import pronunciations",
            without: "Magnetic Poetry finds no rhymes, syllables or words to suggest", table: "pronunciations")
    ]
    static let guestContent = [PoemRepository.publishedByGuest]

    let wordSets: WordSetRepository
    let poems: PoemRepository
    let pronunciations: PronunciationRepository
    let pages: PageRenderer
    var exportSection: any ProfileDataSection { PoetryExportSection(wordSets: wordSets, poems: poems) }

    init(_ shared: AppServices) {
        wordSets = WordSetRepository(database: shared.database.sql)
        poems = PoemRepository(database: shared.database.sql)
        pronunciations = PronunciationRepository(database: shared.database.sql)
        pages = shared.pages
    }

    func addRoutes(to routes: AppRoutes) {
        WordSetsAPIController(wordSets: wordSets, poems: poems).addRoutes(to: routes.api)
        PoemsAPIController(poems: poems, wordSets: wordSets).addRoutes(to: routes.api)
        WordHelpersAPIController(pronunciations: pronunciations).addRoutes(to: routes.api)
        PoetryPagesController(pages: pages, poems: poems).addRoutes(to: routes.pages)
    }
}
