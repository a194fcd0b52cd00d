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

    func addRoutes(to router: Router<TroveRequestContext>) {
        router.get("/stories") { _, context in
            _ = try await context.session.requireProfile()
            return pages.render("stories", title: "Choose Your Destiny · Trove", context: context)
        }
        router.get("/stories/{id}") { _, context in
            _ = try await context.session.requireProfile()
            let id = try context.parameters.require("id")
            guard let stored = try await stories.find(id: id) else { throw StoryError.storyNotFound }
            return pages.render("story", title: "\(stored.story.name) · Choose Your Destiny",
                                model: ReaderModel(storyId: stored.id, storyName: stored.story.name), context: context)
        }
    }
}
