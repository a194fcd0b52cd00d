import Dispatch
import Hummingbird
import Metrics
import Synchronization

/// Records every request once it is answered: counted and timed into `/metrics`, and (unless `--access-log off`) one
/// access-log line with its method, path, status and time.
///
/// The metrics keep Hummingbird's own names (`hb_requests`, `http_server_request_duration`, `hb_request_errors`,
/// `http_server_active_requests`), so dashboards made for Hummingbird read them. Unlike Hummingbird's middlewares it
/// times the answer as it leaves the handler, not after its body is written (wrapping every body for that cost
/// /health a quarter of its rate), and logs once, after the answer, with what the answer was (docs/BENCHMARKS.md).
struct RequestRecords: Sendable {
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
    /// One log line per request, at info (nil: `--access-log off`).
    let accessLog: AccessLog?

    /// A request being answered: when it started, counted among those in flight until `finish`.
    struct Started {
        let nanoseconds: UInt64
        let active: Meter
    }

    func start(_ request: Request) -> Started {
        let active = cache.activeRequests(request.method)
        active.increment()
        return Started(nanoseconds: DispatchTime.now().uptimeNanoseconds, active: active)
    }

    /// Counts and times the answer (`failed`: it came from an error), and logs it.
    func finish(_ started: Started, request: Request, context: TroveRequestContext, status: HTTPResponse.Status, failed: Bool) {
        let elapsed = DispatchTime.now().uptimeNanoseconds - started.nanoseconds
        started.active.decrement()
        let recorders = cache.recorders(
            .init(route: context.endpointPath ?? (failed ? "NotFound" : "Unknown"), method: request.method, status: status))
        recorders.requests.increment()
        if failed {
            recorders.errors.increment()
        } else {
            recorders.duration.recordNanoseconds(elapsed)
        }
        log(request, status: status, nanoseconds: elapsed, context: context)
    }

    func log(_ request: Request, status: HTTPResponse.Status, nanoseconds: UInt64, context: TroveRequestContext) {
        guard let accessLog, context.logger.logLevel <= .info else { return }
        accessLog.record(
            .init(
                method: request.method.rawValue, path: request.uri.description, status: Int(status.code),
                microseconds: nanoseconds / 1000, requestID: context.requestID))
    }
}
