import Accounts
import Foundation
import Hummingbird
import Storage

/// `/api/v1/account/…`: sign up, sign in, sign out, who am I, export, import and delete.
struct AccountAPIController {
    let profiles: ProfileRepository
    let failures: SignInFailureRepository
    let devices: KnownDeviceRepository
    let hasher: PasswordHasher
    let merge: GuestMerge
    let throttle: SignInThrottle
    var clientThrottle = SignInThrottle.perClient
    /// Proxies whose X-Forwarded-For names the client.
    var trustedProxies: [IPNetwork] = []
    /// Whether cookies are `Secure` even without `X-Forwarded-Proto: https` (`ProfileSessions.alwaysSecure`).
    var secureCookies = false
    let exporter: ProfileExporter
    let importer: ProfileImporter

    struct CredentialsBody: Decodable {
        let username: String
        let password: String
    }

    struct PasswordChangeBody: Decodable {
        let current_password: String
        let new_password: String
    }

    /// Written by hand (`JSONWritable`): `account/me` answers it on every page a signed-in person opens, where
    /// JSONEncoder was 7% of the request.
    struct ProfileBody: APIAnswer, JSONWritable {
        struct Item: Encodable {
            let id: String
            let username: String?
            let is_guest: Bool
            let created_at: Date
        }

        let profile: Item

        init(_ profile: Profile) {
            self.profile = Item(id: profile.id, username: profile.username, is_guest: profile.isGuest, created_at: profile.createdAt)
        }

        /// JSONEncoder's document: keys sorted, and no `username` for a guest.
        func write(to writer: inout JSONWriter) {
            writer.object { w in
                w.key("profile")
                w.object { w in
                    w.key("created_at")
                    w.date(profile.created_at)
                    w.key("id")
                    w.string(profile.id)
                    w.key("is_guest")
                    w.bool(profile.is_guest)
                    if let username = profile.username {
                        w.key("username")
                        w.string(username)
                    }
                }
            }
        }
    }

    /// `account`: the group at `/api/v1/account`.
    func addRoutes(to account: RouterGroup<TroveRequestContext>) {
        account.post("signup", use: signUp)
            .post("login", use: logIn)
            .post("logout", use: logOut)
            .post("logout-everywhere", use: logOutEverywhere)
            .post("password", use: changePassword)
            .get("me", use: me)
            .get("guest-work", use: guestWork)
            .get("export", use: export)
            .post("import", use: importExport)
        account.withProfile(otherwise: APIError.notFound("The profile"))
            .delete(use: deleteProfile)
    }

    @Sendable func signUp(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<ProfileBody> {
        let body = try await JSONBody.decode(CredentialsBody.self, from: request)
        let credentials = try Credentials(username: body.username, password: body.password)
        if let current = context.session.profile, !current.isGuest { throw AccountError.alreadySignedIn }
        // Checked before the expensive hash; `promote` checks again inside its transaction. A sign-up whose answer
        // was lost (a reload, a phone's network) is sent again and finds its own account: with its password it
        // signs in, as a sign-in, throttled alike; any other password finds the name taken.
        if try await profiles.credentials(username: credentials.username) != nil {
            do {
                return try await signIn(username: credentials.username, password: body.password, request: request, context: context)
            } catch AccountError.wrongCredentials {
                throw AccountError.usernameTaken
            }
        }
        let hash = try await hasher.hash(credentials.password)
        let guest = try await context.session.requireProfile()
        let account = try await profiles.promote(profileID: guest.id, username: credentials.username, passwordHash: hash)
        try await context.session.signIn(as: account)
        return EditedResponse(
            status: .created, headers: try await rememberDevice(for: account, request: request, now: Date()), response: ProfileBody(account)
        )
    }

    @Sendable func logIn(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<ProfileBody> {
        let body = try await JSONBody.decode(CredentialsBody.self, from: request)
        return try await signIn(
            username: body.username.trimmingCharacters(in: .whitespacesAndNewlines).lowercased(), password: body.password,
            request: request, context: context)
    }

    /// A browser known to the account (`DeviceCookie`) is throttled on its own failures; any other on the
    /// username's failures from unknown browsers and on its address's.
    private func signIn(username: String, password: String, request: Request, context: TroveRequestContext) async throws
        -> EditedResponse<ProfileBody>
    {
        // To the millisecond, as failures are stored: this attempt's own record is then found by its time.
        let now = Date(millisecondsSince1970: Date().millisecondsSince1970)
        let client = ClientAddress.limited(
            remote: context.remoteAddress?.ipAddress, forwardedFor: request.headers[.xForwardedFor],
            trusted: trustedProxies)
        var device = DeviceCookie.token(in: request)
        if let token = device,
            try await !devices.isKnown(token: token, username: username, since: now.addingTimeInterval(-DeviceCookie.lifetime))
        {
            device = nil
        }
        // Refused at once when the limit is already reached; else the attempt is counted as a failure before its
        // password is checked (which takes a bcrypt's time), and the limit checked again with it counted: of many
        // parallel tries, only those within the limit are checked at all.
        _ = try await allowedFailures(username: username, client: client, device: device, now: now)
        let attempt = try await failures.record(username: username, client: client, device: device, at: now)
        let allowed: Int  // failures this sign-in may still meet before it is throttled, this one included
        do {
            allowed = try await allowedFailures(username: username, client: client, device: device, now: now, counted: now)
        } catch {
            try await failures.forget(id: attempt)
            throw error
        }
        let stored: StoredCredentials?
        let verified: Bool
        do {
            stored = try await profiles.credentials(username: username)
            let checkable = password.utf8.count <= Credentials.passwordMaximumBytes
            verified = checkable ? try await hasher.verify(password, hash: stored?.passwordHash) : false
        } catch {
            try? await failures.forget(id: attempt)  // not checked (the server was busy): not a failure
            throw error
        }
        guard verified, let stored else {
            // Warned of before it comes; failures count for any username, so this tells nothing of an account.
            throw AccountError.wrongCredentials(triesLeft: allowed <= 3 ? allowed - 1 : nil)
        }
        try await failures.forget(id: attempt)
        if let device {
            try await failures.clear(device: device, olderThan: throttle.windowStart(now: now))
        } else {
            try await failures.clear(username: username, olderThan: throttle.windowStart(now: now))
        }
        // What the guest made on this device joins the account rather than being left behind.
        if let guest = context.session.profile, guest.isGuest {
            try await merge.merge(guestID: guest.id, into: stored.profile.id)
        }
        try await context.session.signIn(as: stored.profile)
        return EditedResponse(
            headers: try await rememberDevice(for: stored.profile, request: request, now: now), response: ProfileBody(stored.profile))
    }

    /// How many failures this sign-in may still meet before it is throttled (this one included); throws when it is
    /// throttled already. A known browser is counted on its own failures; any other on its address's and the
    /// username's. `counted` is the time of this attempt when it is already recorded, which is then not counted
    /// against itself.
    private func allowedFailures(username: String, client: String?, device: String?, now: Date, counted: Date? = nil)
        async throws -> Int
    {
        func others(_ failures: [Date]) -> [Date] {
            guard let counted, let own = failures.firstIndex(of: counted) else { return failures }
            var others = failures
            others.remove(at: own)
            return others
        }
        if let device {
            return try throttle.check(
                recentFailures: others(try await failures.failures(device: device, since: throttle.windowStart(now: now))), now: now)
        }
        var allowed = Int.max
        if let client {
            allowed = try clientThrottle.check(
                recentFailures: others(try await failures.failures(client: client, since: clientThrottle.windowStart(now: now))),
                now: now)
        }
        return min(
            allowed,
            try throttle.check(
                recentFailures: others(try await failures.failures(username: username, since: throttle.windowStart(now: now))),
                now: now))
    }

    /// A new device token for this browser and the account, replacing the one it brought.
    private func rememberDevice(for profile: Profile, request: Request, now: Date) async throws -> HTTPFields {
        let token = try await devices.remember(profileID: profile.id, replacing: DeviceCookie.token(in: request), now: now)
        return DeviceCookie.headers(token: token, now: now, request: request, alwaysSecure: secureCookies)
    }

    @Sendable func logOut(_ request: Request, context: TroveRequestContext) async throws -> HTTPResponse.Status {
        try await context.session.signOut()
        return .noContent
    }

    /// Ends every session of the account (or guest), this browser's too: for a lost phone or a shared computer.
    @Sendable func logOutEverywhere(_ request: Request, context: TroveRequestContext) async throws -> HTTPResponse.Status {
        try await context.session.signOutEverywhere()
        return .noContent
    }

    /// A new password, given the current one, which is checked as a sign-in is (and throttled alike); every other
    /// session of the account ends, and this one gets a new id.
    @Sendable func changePassword(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<ProfileBody> {
        let body = try await JSONBody.decode(PasswordChangeBody.self, from: request)
        guard let username = context.session.profile?.username else { throw AccountError.profileNotFound }
        try Credentials.check(password: body.new_password)
        let signedIn = try await signIn(username: username, password: body.current_password, request: request, context: context)
        guard let profile = context.session.profile else { throw AccountError.profileNotFound }
        try await profiles.setPasswordHash(try await hasher.hash(body.new_password), profileID: profile.id)
        try await context.session.endOtherSessions()
        return signedIn
    }

    @Sendable func me(_ request: Request, context: TroveRequestContext) async throws -> ProfileBody {
        ProfileBody(try await context.session.requireProfile())
    }

    struct GuestWorkBody: APIAnswer {
        struct Item: Encodable {
            let kind: String
            let count: Int
        }

        let items: [Item]
        let summary: String
    }

    /// What would join an account if this visitor signed in now: the guest's things, nothing for an account.
    @Sendable func guestWork(_ request: Request, context: TroveRequestContext) async throws -> GuestWorkBody {
        guard let profile = context.session.profile, profile.isGuest else { return GuestWorkBody(items: [], summary: "") }
        let work = try await merge.work(of: profile.id)
        return GuestWorkBody(items: work.items.map { .init(kind: $0.kind, count: $0.count) }, summary: work.summary)
    }

    @Sendable func export(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<ProfileExporter.Document> {
        let profile = try await context.session.requireProfile()
        let document = try await exporter.export(profile)
        var headers = HTTPFields()
        headers[.contentDisposition] = "attachment; filename=\"trove-export.json\""
        return EditedResponse(headers: headers, response: document)
    }

    /// An export's file (as `export` writes it, perhaps on another Trove) into this profile, which must hold
    /// nothing yet; up to 20 MB.
    @Sendable func importExport(_ request: Request, context: TroveRequestContext) async throws -> ImportReport {
        let data = try await JSONBody.data(from: request, limit: 20 << 20)
        let profile = try await context.session.requireProfile()
        let report = try await importer.importDocument(data, into: profile.id)
        return report
    }

    @Sendable func deleteProfile(_ request: Request, context: ProfileRequestContext) async throws -> HTTPResponse.Status {
        try await profiles.delete(id: context.profile.id)
        context.session.forget()
        return .noContent
    }
}
