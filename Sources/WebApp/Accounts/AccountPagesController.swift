import Hummingbird

/// The sign-up, sign-in and account pages; their forms talk to the account API from account.js.
struct AccountPagesController {
    let pages: PageRenderer

    func addRoutes(to router: Router<TroveRequestContext>) {
        router.get("/signup") { _, context in
            if let signedIn = Self.signedIn(context) { return signedIn }
            _ = try await context.session.requireProfile()
            return pages.renderKept("signup", title: "Sign up · Trove", context: context)
        }
        router.get("/login") { _, context in
            Self.signedIn(context) ?? pages.renderKept("login", title: "Sign in · Trove", context: context)
        }
        router.get("/account") { _, context in
            _ = try await context.session.requireProfile()
            return pages.renderKept("account", title: "Your profile · Trove", context: context)
        }
    }

    /// Someone signed in who comes to the sign-in or sign-up form (Back after signing in, a link kept from before) is
    /// on their profile's page instead: the forms only answered "You are already signed in: sign out first".
    static func signedIn(_ context: TroveRequestContext) -> Response? {
        guard let profile = context.session.profile, !profile.isGuest else { return nil }
        return Response(status: .seeOther, headers: [.location: "/account"])
    }
}
