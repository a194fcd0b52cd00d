import Hummingbird

/// The sign-up, sign-in and account pages; their forms talk to the account API from account.js.
struct AccountPagesController {
    let pages: PageRenderer

    func addRoutes(to router: Router<TroveRequestContext>) {
        router.get("/signup") { _, context in
            _ = try await context.session.requireProfile()
            return pages.renderKept("signup", title: "Sign up · Trove", context: context)
        }
        router.get("/login") { _, context in
            pages.renderKept("login", title: "Sign in · Trove", context: context)
        }
        router.get("/account") { _, context in
            _ = try await context.session.requireProfile()
            return pages.renderKept("account", title: "Your profile · Trove", context: context)
        }
    }
}
