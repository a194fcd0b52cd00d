import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the visitor's profile session.
public struct TroveRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Filled by `ProfileSessions` (the request pipeline); before it runs, it is an empty session that cannot create profiles.
    public var session: ProfileSession
    /// The connection's peer (nil in router tests); see `ClientAddress` for the client behind a proxy.
    public let remoteAddress: SocketAddress?
    /// Hummingbird's request id (`hb.request.id` on every log line of the request), formatted once: the
    /// `X-Request-Id` header and the access log both carry it.
    public let requestID: String

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.session = .outsideSessions
        self.remoteAddress = source.channel.remoteAddress
        self.requestID = source.logger[metadataKey: "hb.request.id"]?.description ?? ""
    }

    /// Request bodies over this size are refused with 413.
    public var maxUploadSize: Int { 12 * 1024 * 1024 }
}
