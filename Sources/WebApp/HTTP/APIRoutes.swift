import Hummingbird
import Synchronization

/// One API operation as the router knows it, for comparison with the OpenAPI document.
public struct APIOperation: Hashable, Sendable, CustomStringConvertible {
    public let method: String
    public let path: String
    public var description: String { "\(method) \(path)" }
}

/// The list of API operations registered, filled while routes are added.
public final class APIOperationLog: Sendable {
    private let operations = Mutex<[APIOperation]>([])

    public var all: [APIOperation] { operations.withLock { $0 } }

    func record(_ operation: APIOperation) {
        operations.withLock { $0.append(operation) }
    }
}

/// Adds JSON API routes to the router and records each one, so the OpenAPI document test sees every route.
struct APIRoutes {
    let router: Router<TroveRequestContext>
    let log: APIOperationLog

    @discardableResult
    func on(
        _ method: HTTPRequest.Method, _ path: String,
        use handler: @escaping @Sendable (Request, TroveRequestContext) async throws -> Response
    ) -> Self {
        router.on(RouterPath(path), method: method, use: handler)
        log.record(APIOperation(method: method.rawValue.lowercased(), path: path))
        return self
    }

    @discardableResult
    func get(_ path: String, use handler: @escaping @Sendable (Request, TroveRequestContext) async throws -> Response) -> Self {
        on(.get, path, use: handler)
    }

    @discardableResult
    func post(_ path: String, use handler: @escaping @Sendable (Request, TroveRequestContext) async throws -> Response) -> Self {
        on(.post, path, use: handler)
    }

    @discardableResult
    func put(_ path: String, use handler: @escaping @Sendable (Request, TroveRequestContext) async throws -> Response) -> Self {
        on(.put, path, use: handler)
    }

    @discardableResult
    func patch(_ path: String, use handler: @escaping @Sendable (Request, TroveRequestContext) async throws -> Response) -> Self {
        on(.patch, path, use: handler)
    }

    @discardableResult
    func delete(_ path: String, use handler: @escaping @Sendable (Request, TroveRequestContext) async throws -> Response) -> Self {
        on(.delete, path, use: handler)
    }
}
