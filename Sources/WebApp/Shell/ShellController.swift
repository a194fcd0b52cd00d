import Hummingbird

/// The home page, static assets, the manifest and the service worker.
struct ShellController {
    let pages: PageRenderer
    let assets: StaticAssets

    struct HomeModel: Hashable, Sendable {
        let apps: [AppEntry]
    }

    func addRoutes(to router: Router<TroveRequestContext>) {
        router.get("/") { _, context in
            _ = try await context.session.requireProfile()
            return pages.renderKept("home", title: "Trove", model: HomeModel(apps: pages.apps), context: context)
        }
        router.get("/static/**") { request, context in
            try serveStatic(request, context: context)
        }
        router.get("/sw.js") { request, _ in
            guard var response = assets.response(for: "sw.js", request: request, cacheControl: "no-cache") else {
                throw APIError.notFound("The service worker")
            }
            response.headers[.serviceWorkerAllowed] = "/"
            return response
        }
        router.get("/manifest.webmanifest") { request, _ in
            guard let response = assets.response(for: "manifest.webmanifest", request: request, cacheControl: "no-cache") else {
                throw APIError.notFound("The manifest")
            }
            return response
        }
    }

    /// `/static/<version>/<path>` is immutable when the version is current; `/static/<path>` revalidates.
    private func serveStatic(_ request: Request, context: TroveRequestContext) throws -> Response {
        let parts = context.parameters.getCatchAll().map(String.init)
        let response: Response?
        if parts.count > 1, parts[0] == assets.version {
            response = assets.response(
                for: parts.dropFirst().joined(separator: "/"), request: request,
                cacheControl: "public, max-age=31536000, immutable")
        } else if parts.count > 1, parts[0].count == assets.version.count, assets.files[parts.joined(separator: "/")] == nil {
            // A page from an older version asks for an asset: serve today's file, but don't let it be kept.
            response = assets.response(for: parts.dropFirst().joined(separator: "/"), request: request, cacheControl: "no-cache")
        } else {
            response = assets.response(for: parts.joined(separator: "/"), request: request, cacheControl: "no-cache")
        }
        guard let response else { throw APIError.notFound("The file") }
        return response
    }
}
