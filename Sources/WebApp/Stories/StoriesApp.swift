import ChooseYourDestiny
import Foundation
import Hummingbird
import Storage

/// Choose Your Destiny: published stories (story.json, Twee, Twine HTML), libraries, reading, and the story map.
struct StoriesApp: TroveApp {
    typealias DomainError = StoryError
    static let entry = AppEntry(slug: "stories", name: "Choose Your Destiny", description: "Stories where every choice is yours.")
    static let migrations = StoryMigrations.all
    static let templates = ["stories", "story", "story-map"]
    static let guestContent = [StoryRepository.ownedByGuest]

    let stories: StoryRepository
    let schema: ByteBuffer
    let pages: PageRenderer
    var exportSection: any ProfileDataSection { StoriesExportSection(stories: stories) }

    init(_ shared: AppServices) throws {
        stories = StoryRepository(database: shared.database.sql)
        schema = ByteBuffer(bytes: try Data(contentsOf: shared.resources.appendingPathComponent("APIDocument/story.schema.json")))
        pages = shared.pages
    }

    func addRoutes(to routes: AppRoutes) {
        StoriesAPIController(stories: stories, schema: schema).addRoutes(to: routes.api)
        StoryPlayAPIController(stories: stories).addRoutes(to: routes.api)
        StoriesPagesController(pages: pages, stories: stories).addRoutes(to: routes.pages)
    }
}
