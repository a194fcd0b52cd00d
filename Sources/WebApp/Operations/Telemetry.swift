import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import Metrics
import Prometheus

/// The process's metrics, in the Prometheus text format at `GET /metrics`: swift-metrics is the interface
/// (Hummingbird's MetricsMiddleware, our own counters), swift-prometheus the backend. The metrics system can be
/// set up once per process, so every application built in it (the tests build many) shares this registry.
enum Telemetry {
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// Sets the metrics system up (before any metric is made), once.
    static func start() {
        _ = registry
    }

    /// Writes of the offline outbox answered from an earlier answer (`Idempotency-Key` replays).
    static let idempotentReplays = Counter(label: "trove_idempotent_replays_total")

    /// A cache answered from what it held (hit) or had to ask (miss): `trove_cache_lookups_total{cache,result}`.
    static func cacheLookup(_ cache: String, hit: Bool) {
        Counter(label: "trove_cache_lookups_total", dimensions: [("cache", cache), ("result", hit ? "hit" : "miss")]).increment()
    }

    /// Made once (after the registry, whichever is asked for first): most requests look a session up, and making a
    /// counter asks the registry each time (its lock, the name checked, the dimensions hashed).
    private static let sessionsFromCache = sessionCounter("cache")
    private static let sessionsFromDatabase = sessionCounter("database")

    private static func sessionCounter(_ source: String) -> CoreMetrics.Counter {
        start()
        return Counter(label: "trove_session_lookups_total", dimensions: [("source", source)])
    }

    static func sessionLookup(cached: Bool) {
        (cached ? sessionsFromCache : sessionsFromDatabase).increment()
    }

    /// The resident memory of this process, read when metrics are asked for.
    static func residentBytes() -> Double? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return nil }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE)))
    }

    static let residentMemory = Gauge(label: "trove_process_resident_memory_bytes")

    static func text() -> String {
        if let bytes = residentBytes() { residentMemory.record(bytes) }
        return registry.emitToString()
    }
}

/// `GET /metrics`: every counter and histogram, for Prometheus to scrape. Not for the public: it answers a request
/// bearing the configured token, or with none configured, a request from this machine that no proxy forwarded;
/// anyone else finds nothing there (404).
struct MetricsController {
    let token: String?

    func addRoutes(to router: Router<TroveRequestContext>) {
        router.get("/metrics") { request, context in
            guard Self.mayRead(request, remote: context.remoteAddress?.ipAddress, token: token) else {
                throw APIError.notFound("The page")
            }
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Telemetry.text())))
        }
    }

    static func mayRead(_ request: Request, remote: String?, token: String?) -> Bool {
        if let token { return request.headers[.authorization] == "Bearer \(token)" }
        let forwarded = request.headers[.xForwardedFor] != nil || request.headers[HTTPField.Name("Forwarded")!] != nil
        guard let remote, !forwarded else { return false }
        return remote.hasPrefix("127.") || remote == "::1" || remote == "::ffff:127.0.0.1"
    }
}
