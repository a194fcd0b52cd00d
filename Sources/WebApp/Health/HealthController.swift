import DatabaseDrivers
import Hummingbird

/// `GET /health`: the server is up, and which database it uses.
struct HealthController {
    let databaseKind: DatabaseKind

    struct Health: Encodable {
        let status: String
        let database: String
    }

    func addRoutes(to api: APIRoutes) {
        let body = Health(status: "ok", database: databaseKind.rawValue)
        api.get("/health") { _, _ in JSONResponse.make(body) }
    }
}
