import Hummingbird

/// `/yoga`: the instructor's app; everything on it comes from the yoga API.
struct YogaPagesController {
    let pages: PageRenderer

    func addRoutes(to router: Router<TroveRequestContext>) {
        router.get("/yoga") { _, context in
            _ = try await context.session.requireProfile()
            return pages.renderKept("yoga", title: "YogiYogini · Trove", context: context)
        }
    }
}
