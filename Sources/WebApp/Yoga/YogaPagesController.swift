import Hummingbird

/// `/yoga`: the instructor's app; everything on it comes from the yoga API.
struct YogaPagesController {
    let pages: PageRenderer

    /// `pages`: the group at `/yoga`.
    func addRoutes(to pages: RouterGroup<TroveRequestContext>) {
        pages.get { _, context in
            _ = try await context.session.requireProfile()
            return self.pages.renderKept("yoga", title: "YogiYogini · Trove", context: context)
        }
    }
}
