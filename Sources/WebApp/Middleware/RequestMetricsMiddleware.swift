import Dispatch
import Hummingbird
import Metrics
import Synchronization

/// Counts every request and times it into `/metrics`, under Hummingbird's own metric names (`hb_requests`,
/// `http_server_request_duration`, `hb_request_errors`, `http_server_active_requests`), so dashboards made for
/// Hummingbird read them. Unlike Hummingbird's MetricsMiddleware it times the answer as it leaves the handler, not
/// after its body is written: wrapping every body for that cost /health a quarter of its rate (docs/BENCHMARKS.md).
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = TroveRequestContext

    struct Endpoint: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: HTTPResponse.Status
    }

    struct Recorders: Sendable {
        let requests: Counter
        let duration: Timer
        let errors: Counter
    }

    final class Cache: Sendable {
        let endpoints = Mutex<[Endpoint: Recorders]>([:])
        let active = Mutex<[HTTPRequest.Method: Meter]>([:])

        func recorders(_ endpoint: Endpoint) -> Recorders {
            endpoints.withLock { known in
                if let found = known[endpoint] { return found }
                let dimensions = [
                    ("http.route", endpoint.route), ("http.request.method", endpoint.method.rawValue),
                    ("http.response.status_code", String(endpoint.status.code)),
                ]
                let made = Recorders(
                    requests: Counter(label: "hb.requests", dimensions: dimensions),
                    duration: Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds),
                    errors: Counter(
                        label: "hb.request.errors",
                        dimensions: [
                            ("http.route", endpoint.route), ("http.request.method", endpoint.method.rawValue),
                            ("error.type", String(endpoint.status.code)),
                        ]))
                known[endpoint] = made
                return made
            }
        }

        func activeRequests(_ method: HTTPRequest.Method) -> Meter {
            active.withLock { known in
                if let found = known[method] { return found }
                let made = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
                known[method] = made
                return made
            }
        }
    }

    let cache = Cache()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let active = cache.activeRequests(request.method)
        active.increment()
        defer { active.decrement() }
        do {
            let response = try await next(request, context)
            let recorders = cache.recorders(
                .init(route: context.endpointPath ?? "Unknown", method: request.method, status: response.status))
            recorders.requests.increment()
            recorders.duration.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let recorders = cache.recorders(.init(route: context.endpointPath ?? "NotFound", method: request.method, status: status))
            recorders.requests.increment()
            recorders.errors.increment()
            throw error
        }
    }
}
