import ChooseYourDestiny
import Hummingbird
import Storage

/// `/stories` (the hub: library and catalog) and `/stories/{id}` (the reader).
struct StoriesPagesController {
    let pages: PageRenderer
    let stories: StoryRepository

    struct ReaderModel {
        let storyId: String
        let storyName: String
    }

    struct MapModel {
        let storyId: String
        let storyName: String
        let svg: String
        let chapterCount: Int
        let endingCount: Int
        let unreachableCount: Int
        let warnings: [String]
        let hasWarnings: Bool
    }

    func addRoutes(to router: Router<TroveRequestContext>) {
        router.get("/stories") { _, context in
            _ = try await context.session.requireProfile()
            return pages.renderKept("stories", title: "Choose Your Destiny · Trove", context: context)
        }
        router.get("/stories/{id}") { _, context in
            _ = try await context.session.requireProfile()
            let id = try context.parameters.require("id")
            guard let stored = try await stories.find(id: id) else { throw StoryError.storyNotFound }
            return pages.render(
                "story", title: "\(stored.story.name) · Choose Your Destiny",
                model: ReaderModel(storyId: stored.id, storyName: stored.story.name), context: context)
        }
        router.get("/stories/{id}/map") { _, context in
            _ = try await context.session.requireProfile()
            let id = try context.parameters.require("id")
            guard let stored = try await stories.find(id: id) else { throw StoryError.storyNotFound }
            let map = StoryMap(stored.story)
            let warnings = StoryValidation(stored.story).warnings
            return pages.render(
                "story-map", title: "Map of \(stored.story.name) · Choose Your Destiny",
                model: MapModel(
                    storyId: stored.id, storyName: stored.story.name, svg: StoryMapSVG.render(map), chapterCount: map.nodes.count,
                    endingCount: map.nodes.filter { $0.kind == .ending }.count,
                    unreachableCount: map.nodes.filter { $0.kind == .unreachable }.count,
                    warnings: warnings, hasWarnings: !warnings.isEmpty
                ), context: context)
        }
    }
}
