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

    /// `pages`: the group at `/stories`.
    func addRoutes(to pages: RouterGroup<TroveRequestContext>) {
        pages.get { _, context in
            _ = try await context.session.requireProfile()
            return self.pages.renderKept("stories", title: "Choose Your Destiny · Trove", context: context)
        }
        pages.get("{id}") { _, context in
            _ = try await context.session.requireProfile()
            let id = try context.parameters.require("id")
            guard let stored = try await stories.find(id: id) else { throw StoryError.storyNotFound }
            return self.pages.render(
                "story", title: "\(stored.story.name) · Choose Your Destiny",
                model: ReaderModel(storyId: stored.id, storyName: stored.story.name), context: context)
        }
        pages.get("{id}/map") { _, context in
            _ = try await context.session.requireProfile()
            let id = try context.parameters.require("id")
            guard let stored = try await stories.find(id: id) else { throw StoryError.storyNotFound }
            let map = StoryMap(stored.story)
            let warnings = StoryValidation(stored.story).warnings
            return self.pages.render(
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
