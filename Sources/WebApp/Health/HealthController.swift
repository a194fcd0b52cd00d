import DatabaseDrivers
import Hummingbird
import Providers
import SQLKit

/// `GET /health`: the server is up, and which database it uses (liveness: it touches nothing).
/// `GET /ready`: the database answers and each app's checks pass (City Roulette's catalog is built), for a load
/// balancer: 200, or 503 with each check's state.
struct HealthController {
    let database: Database
    /// The apps' own conditions (`TroveApp.readiness`), each named in the answer: "ok" or "building".
    let checks: [ReadinessCheck]
    /// How long the database may take to answer `SELECT 1` before the instance counts as not ready.
    var databaseDeadline: Duration = .seconds(2)

    struct Health: Encodable {
        let status: String
        let database: String
    }

    struct Readiness: Encodable {
        let status: String
        let database: String
        let checks: [(name: String, state: String)]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: NamedKey.self)
            try container.encode(status, forKey: NamedKey("status"))
            try container.encode(database, forKey: NamedKey("database"))
            for check in checks { try container.encode(check.state, forKey: NamedKey(check.name)) }
        }
    }

    struct NoAnswer: Error {}

    func addRoutes(to router: Router<TroveRequestContext>) {
        // The same answer every time: made once (load balancers and monitors ask it often).
        let health = JSONResponse.make(Health(status: "ok", database: database.kind.rawValue))
        router.get("/health") { _, _ in health }
            .get("/ready") { _, _ in try await readiness() }
    }

    func readiness() async throws -> Response {
        let sql = database.sql
        let nanoseconds =
            UInt64(databaseDeadline.components.seconds) * 1_000_000_000 + UInt64(databaseDeadline.components.attoseconds / 1_000_000_000)
        let databaseState: String
        do {
            _ = try await Deadline.race(nanoseconds: nanoseconds, timedOut: NoAnswer()) { try await sql.raw("SELECT 1 AS one").first() }
            databaseState = "ok"
        } catch is NoAnswer {
            databaseState = "not_answering"
        } catch {
            databaseState = "unreachable"
        }
        var states: [(name: String, state: String)] = []
        for check in checks { states.append((check.name, await check.isReady() ? "ok" : "building")) }
        let ready = databaseState == "ok" && states.allSatisfy { $0.state == "ok" }
        var headers = HTTPFields()
        if !ready { headers[.retryAfter] = "5" }
        return JSONResponse.make(
            Readiness(status: ready ? "ready" : "not_ready", database: databaseState, checks: states),
            status: ready ? .ok : .serviceUnavailable, headers: headers)
    }
}
