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

    /// `pages`: the group at `/poetry`.
    func addRoutes(to pages: RouterGroup<TroveRequestContext>) {
        pages.get { _, context in
            _ = try await context.session.requireProfile()
            return self.pages.renderKept("poetry", title: "Magnetic Poetry · Trove", context: context)
        }
        pages.get("p/{publicId}") { _, context in
            let publicId = try context.parameters.require("publicId")
            guard let found = try await poems.published(publicId: publicId) else { throw APIError.notFound("The poem") }
            return self.pages.render(
                "poetry-public", title: "\(found.poem.title) · Magnetic Poetry",
                model: PublicModel(publicId: publicId, title: found.poem.title), context: context)
        }
    }
}
