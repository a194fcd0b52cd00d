import Accounts
import Hummingbird
import NIOCore

/// The context of a route that acts on something of the visitor's own: the visitor has a profile, and `profile` is it.
/// Such routes are added to a group from `withProfile(_:otherwise:)`.
struct ProfileRequestContext: ChildRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let profile: Profile
    let session: ProfileSession
    let remoteAddress: SocketAddress?
    let requestID: String
    /// The parent's limit, so a profile route refuses the same bodies as any other.
    let maxUploadSize: Int

    init(context: TroveRequestContext) throws {
        guard let profile = context.session.profile else { throw APIError.notFound("The profile") }
        self.init(context: context, profile: profile)
    }

    init(context: TroveRequestContext, profile: Profile) {
        self.coreContext = context.coreContext
        self.profile = profile
        self.session = context.session
        self.remoteAddress = context.remoteAddress
        self.requestID = context.requestID
        self.maxUploadSize = context.maxUploadSize
    }
}

extension RouterMethods where Context == TroveRequestContext {
    /// A group at `path` of routes that act on the visitor's own things. A visitor without a profile has nothing of
    /// their own, so each of these routes answers them as it answers for something that is not theirs: `absent`
    /// (`PoetryError.poemNotFound` for `poems/{id}`), without running the handler.
    func withProfile(_ path: RouterPath = "", otherwise absent: some Error) -> RouterGroup<ProfileRequestContext> {
        ProfileRoutes(parent: group(path), absent: absent).group()
    }
}

/// The router group behind `withProfile`: it makes each request's `ProfileRequestContext`, or throws `absent`.
/// (Hummingbird's own `group(context:)` cannot say which error a missing profile is for each group.)
private struct ProfileRoutes<Parent: RouterMethods<TroveRequestContext>>: RouterMethods {
    typealias Context = ProfileRequestContext
    let parent: Parent
    let absent: any Error

    struct Responder<Inner: HTTPResponder<ProfileRequestContext>>: HTTPResponder {
        let inner: Inner
        let absent: any Error

        func respond(to request: Request, context: TroveRequestContext) async throws -> Response {
            guard let profile = context.session.profile else { throw absent }
            return try await inner.respond(to: request, context: ProfileRequestContext(context: context, profile: profile))
        }
    }

    @discardableResult func on<Inner: HTTPResponder>(_ path: RouterPath, method: HTTPRequest.Method, responder: Inner) -> Self
    where Inner.Context == ProfileRequestContext {
        parent.on(path, method: method, responder: Responder(inner: responder, absent: absent))
        return self
    }

    func add(middleware: any MiddlewareProtocol<Request, Response, ProfileRequestContext>) -> Self {
        preconditionFailure("Add middleware to the parent group of a profile group.")
    }
}
