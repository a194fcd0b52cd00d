import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the visitor's profile session.
public struct TroveRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Filled by `ProfileSessionMiddleware`; before it runs, it is an empty session that cannot create profiles.
    public var session: ProfileSession
    /// The connection's peer (nil in router tests); see `ClientAddress` for the client behind a proxy.
    public let remoteAddress: SocketAddress?

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.session = ProfileSession(store: nil, current: nil)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// Request bodies over this size are refused with 413.
    public var maxUploadSize: Int { 12 * 1024 * 1024 }
}
