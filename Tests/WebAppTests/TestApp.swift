import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TestSupport
import WebApp

/// Runs `body` against a full application on a fresh database of the given kind.
func withTestApp<R: Sendable>(
    _ kind: DatabaseKind, _ body: @Sendable @escaping (any TestClientProtocol, Database) async throws -> R
) async throws -> R {
    try await TestDatabase.with(kind) { database in
        let app = try await buildApplication(testConfiguration, database: database)
        return try await app.test(.router) { client in try await body(client, database) }
    }
}

let testConfiguration: AppConfiguration = {
    var configuration = AppConfiguration()
    configuration.passwordHashCost = 4
    configuration.logLevel = .warning
    // Tests never reach real services: weather goes nowhere unless a test starts a fake.
    configuration.weather.openMeteoURL = URL(string: "http://127.0.0.1:1")!
    configuration.weather.timeoutSeconds = 1
    return configuration
}()

/// `withTestApp` with City Roulette's fixture cities imported first (and `villages` invented ones), and
/// weather from `weatherURL` when given.
func withCityApp<R: Sendable>(
    _ kind: DatabaseKind, villages: Int = 0, weatherURL: URL? = nil, wikipediaURL: URL? = nil,
    _ body: @Sendable @escaping (any TestClientProtocol, Database) async throws -> R
) async throws -> R {
    try await TestDatabase.with(kind) { database in
        try await TestCities.importFixture(into: database, villages: villages)
        var configuration = testConfiguration
        if let weatherURL {
            configuration.weather.openMeteoURL = weatherURL
            // A fake on this machine answers at once, but not always within 1 s when the machine is busy.
            configuration.weather.timeoutSeconds = 3
        }
        if let wikipediaURL { configuration.wikipediaURL = wikipediaURL }
        let app = try await buildApplication(configuration, database: database)
        return try await app.test(.router) { client in try await body(client, database) }
    }
}

extension HTTPFields {
    static func json(cookie: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json"]
        if let cookie { fields[.cookie] = "trove_session=\(cookie)" }
        return fields
    }

    static func session(_ cookie: String?) -> HTTPFields {
        var fields: HTTPFields = [:]
        if let cookie { fields[.cookie] = "trove_session=\(cookie)" }
        return fields
    }
}

extension TestResponse {
    /// The session id this response sets, "" when it clears the cookie, nil when it leaves it alone.
    var sessionCookie: String? {
        for header in headers[values: .setCookie] where header.hasPrefix("trove_session=") {
            return String(header.dropFirst("trove_session=".count).prefix { $0 != ";" })
        }
        return nil
    }

    /// The `trove_device` token this response sets, if any.
    var deviceCookie: String? {
        for header in headers[values: .setCookie] where header.hasPrefix("trove_device=") {
            return String(header.dropFirst("trove_device=".count).prefix { $0 != ";" })
        }
        return nil
    }

    var bodyText: String { String(buffer: body) }

    func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(bodyText.utf8)) as? [String: Any] ?? [:]
    }

    var errorCode: String? {
        ((try? json())?["error"] as? [String: Any])?["code"] as? String
    }

    var errorMessage: String? {
        ((try? json())?["error"] as? [String: Any])?["message"] as? String
    }

    var profile: [String: Any]? {
        (try? json())?["profile"] as? [String: Any]
    }
}

func body(_ object: [String: Any]) -> ByteBuffer {
    ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: object))
}

/// Signs up a new account from a fresh guest session and returns its session cookie.
func signUp(_ client: some TestClientProtocol, username: String, password: String = "correct horse") async throws -> String {
    try await client.execute(
        uri: "/api/v1/account/signup", method: .post, headers: .json(),
        body: body(["username": username, "password": password])
    ).sessionCookie ?? ""
}
