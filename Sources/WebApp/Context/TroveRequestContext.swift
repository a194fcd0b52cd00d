import Hummingbird

/// The per-request context: Hummingbird's core storage plus the visitor's profile session.
public struct TroveRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Filled by `ProfileSessionMiddleware`; before it runs, it is an empty session that cannot create profiles.
    public var session: ProfileSession

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.session = ProfileSession(store: nil, current: nil)
    }

    /// Request bodies over this size are refused with 413.
    public var maxUploadSize: Int { 12 * 1024 * 1024 }
}
