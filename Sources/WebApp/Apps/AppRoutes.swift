import Hummingbird

/// Where an app adds its routes: route groups at its own paths, so each route names only what follows them.
///
/// - `api`: the group at `/api/v1/<slug>` (`api.get("poems/{id}", use: one)` is `GET /api/v1/poetry/poems/{id}`);
///   every route under `/api/` is documented in openapi.json (OpenAPIDocumentTests checks it).
/// - `pages`: the group at `/<slug>` (`pages.get { … }` is the app's own page, `pages.get("p/{publicId}")` one below).
/// - `router`: the whole router, for the rare route outside both (Oblique Strategies' Monks-compatible `/api/oblique`).
///
/// Routes that act on the visitor's own things go in a group from `withProfile(_:otherwise:)`, whose context has the
/// profile (not optional).
struct AppRoutes {
    let api: RouterGroup<TroveRequestContext>
    let pages: RouterGroup<TroveRequestContext>
    let router: Router<TroveRequestContext>

    init(slug: String, router: Router<TroveRequestContext>) {
        self.api = router.group(RouterPath("/api/v1/\(slug)"))
        self.pages = router.group(RouterPath("/\(slug)"))
        self.router = router
    }
}
