import Hummingbird
import Storage

/// `/poetry` (the board) and `/poetry/p/{publicId}` (a published poem, read-only).
struct PoetryPagesController {
    let pages: PageRenderer
    let poems: PoemRepository

    struct PublicModel {
        let publicId: String
        let title: String
    }

    func addRoutes(to router: Router<TroveRequestContext>) {
        router.get("/poetry") { _, context in
            _ = try await context.session.requireProfile()
            return pages.renderKept("poetry", title: "Magnetic Poetry · Trove", context: context)
        }
        router.get("/poetry/p/{publicId}") { _, context in
            let publicId = try context.parameters.require("publicId")
            guard let found = try await poems.published(publicId: publicId) else { throw APIError.notFound("The poem") }
            return pages.render(
                "poetry-public", title: "\(found.poem.title) · Magnetic Poetry",
                model: PublicModel(publicId: publicId, title: found.poem.title), context: context)
        }
    }
}
