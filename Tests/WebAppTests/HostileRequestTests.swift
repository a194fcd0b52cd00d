import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import TestSupport
import Testing
import WebApp

/// What an attacker tries on the account paths and at the door (issue 56): parallel guesses, a second Host header,
/// an account import built to freeze the server.
@Suite struct HostileRequestTests {
    /// 30 sign-ins at one username at once, 29 wrong and the right one among them: the attempt is counted before its
    /// password is checked, so at most the limit's five are checked at all, and no more than five fail as 401.
    @Test(arguments: DatabaseKind.allCases)
    func parallelGuessesPassTheThrottleOnlyWithinItsLimit(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let signUp = try await client.execute(
                uri: "/api/v1/account/signup", method: .post, headers: .json(),
                body: body(["username": "ida", "password": "correct horse"]))
            #expect(signUp.status == .created)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for attempt in 0..<30 {
                    group.addTask {
                        let password = attempt == 17 ? "correct horse" : "guess \(attempt)"
                        return try await client.execute(
                            uri: "/api/v1/account/login", method: .post, headers: .json(),
                            body: body(["username": "ida", "password": password])
                        ).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            let checked = statuses.filter { $0 != .tooManyRequests }
            #expect(checked.count <= 5, "\(statuses)")
            #expect(statuses.filter { $0 == .unauthorized }.count <= 5)
            #expect(statuses.allSatisfy { [.ok, .unauthorized, .tooManyRequests].contains($0) })
        }
    }

    @Test func aSecondHostHeaderIsRefused() async throws {
        try await withTestApp(.sqlite) { client, _ in
            var headers = HTTPFields()
            headers.append(HTTPField(name: HTTPField.Name("Host")!, value: "evil.example"))
            let answer = try await client.execute(uri: "/health", method: .get, headers: headers)
            #expect(answer.status == .badRequest)
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
        }
    }

    /// Ten million zeros in 20 MB are refused before they are parsed, and quickly; so is a document nested 100 deep.
    @Test func anImportOfTooManyValuesIsRefusedBeforeParsing() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let cookie = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            var junk = #"{"format":"trove-export/2","poetry":{"junk":["#
            junk += String(repeating: "0,", count: 9_000_000) + "0]}}"
            let started = ContinuousClock.now
            let refused = try await client.execute(
                uri: "/api/v1/account/import", method: .post, headers: .json(cookie: cookie), body: ByteBuffer(string: junk))
            #expect(refused.status == .unprocessableContent, "\(refused.bodyText.prefix(200))")
            #expect(refused.bodyText.contains("more than 1000000 values"))
            #expect(ContinuousClock.now - started < .seconds(10))
            let deep =
                #"{"format":"trove-export/2","poetry":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
            let nested = try await client.execute(
                uri: "/api/v1/account/import", method: .post, headers: .json(cookie: cookie), body: ByteBuffer(string: deep))
            #expect(nested.status == .unprocessableContent)
            #expect(nested.bodyText.contains("nests deeper"))
        }
    }

    /// A backup is its owner's alone, and carries no session or device token that could sign someone in.
    @Test func aBackupIsPrivateAndHoldsNoSignInTokens() async throws {
        try await withTestApp(.sqlite) { client, database in
            let cookie = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            _ = try await client.execute(
                uri: "/api/v1/yoga/students", method: .post, headers: .json(cookie: cookie),
                body: ByteBuffer(string: #"{"name":"Asha","joined_on":"2026-01-05"}"#))
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("trove-backup-\(UUID().uuidString).gz")
            defer { try? FileManager.default.removeItem(at: file) }
            _ = try await DatabaseBackup(database: database).backUp(to: file)
            let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(permissions == 0o600)
            var lines: [String] = []
            _ = try await BackupArchive.read(file) { lines.append(String(describing: $0)) }
            let session = String(cookie.split(separator: "=").last ?? "")
            #expect(!session.isEmpty && !lines.contains { $0.contains(session) })
            #expect(lines.contains { $0.contains("Asha") })
        }
    }

    /// An import publishes only as an upload does: not for a guest, not a story the checks refuse, and under the id
    /// an upload would get, so its author can always reach and withdraw it.
    @Test func anImportPublishesOnlyWhatAnUploadWould() async throws {
        try await withTestApp(.sqlite) { client, _ in
            func story(id: String, video: String) -> String {
                let chapters: [[String: Any]] = [
                    [
                        "id": "1", "name": "Start", "is_first_chapter": true, "text": "Go on.",
                        "choices": [["text": "On", "chapter_id": "2"]],
                    ],
                    ["id": "2", "name": "End", "text": "The end.", "video_url": video, "choices": []],
                ]
                let object = ["story": ["id": id, "name": "Sneaky \(id.count)", "chapters": chapters]]
                return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            }
            func document(_ published: [String]) -> ByteBuffer {
                let object: [String: Any] = [
                    "format": "trove-export/2", "stories": ["library": [], "progress": [], "published": published],
                ]
                return ByteBuffer(data: try! JSONSerialization.data(withJSONObject: object))
            }
            let stories = [story(id: "a/b/../../x y?#", video: "https://example.org/v"), story(id: "evil", video: "javascript:alert(1)")]
            let guest = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            let asGuest = try await client.execute(
                uri: "/api/v1/account/import", method: .post, headers: .json(cookie: guest), body: document(stories))
            #expect(asGuest.status == .ok, "\(asGuest.bodyText)")
            #expect(try asGuest.json()["added"] as? [String: Int] == [:])
            let account = try await signUp(client, username: "uma")
            let imported = try await client.execute(
                uri: "/api/v1/account/import", method: .post, headers: .json(cookie: account), body: document(stories))
            #expect(try imported.json()["added"] as? [String: Int] == ["published_stories": 1, "stories": 1], "\(imported.bodyText)")
            #expect(imported.bodyText.contains("http(s)"))
            let mine = try await client.execute(uri: "/api/v1/stories/a-b-x-y", method: .get, headers: .session(account))
            #expect(mine.status == .ok, "\(mine.bodyText.prefix(300))")
            #expect(
                try await client.execute(uri: "/api/v1/stories/a-b-x-y", method: .delete, headers: .session(account)).status == .noContent)
        }
    }

    /// A password change needs the current password, ends every other session of the account and keeps this
    /// browser signed in under a new session id; signing out everywhere ends them all.
    @Test(arguments: DatabaseKind.allCases)
    func aPasswordChangeEndsTheOtherSessionsAndSignOutEverywhereEndsAll(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let phone = try await signUp(client, username: "vic", password: "old password")
            let laptop = try await logIn(client, username: "vic", password: "old password")
            func me(_ cookie: String) async throws -> String? {
                try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(cookie)).profile?["username"] as? String
            }
            func change(_ cookie: String, from current: String, to new: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/api/v1/account/password", method: .post, headers: .json(cookie: cookie),
                    body: body(["current_password": current, "new_password": new]))
            }
            #expect(try await change(phone, from: "a guess", to: "new password").status == .unauthorized)
            #expect(try await change(phone, from: "old password", to: "short").status == .unprocessableContent)
            let changed = try await change(phone, from: "old password", to: "new password")
            #expect(changed.status == .ok, "\(changed.bodyText)")
            let renewed = try #require(changed.sessionCookie)
            #expect(renewed != phone)
            #expect(try await me(renewed) == "vic")
            #expect(try await me(laptop) == nil)
            #expect(try await me(phone) == nil)
            let login = { (password: String) in
                try await client.execute(
                    uri: "/api/v1/account/login", method: .post, headers: .json(), body: body(["username": "vic", "password": password])
                ).status
            }
            #expect(try await login("old password") == .unauthorized)
            #expect(try await login("new password") == .ok)
            let guest = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            #expect(try await change(guest, from: "x", to: "new password 2").status == .notFound)

            let other = try await logIn(client, username: "vic", password: "new password")
            let everywhere = try await client.execute(uri: "/api/v1/account/logout-everywhere", method: .post, headers: .session(renewed))
            #expect(everywhere.status == .noContent)
            #expect(try await me(renewed) == nil)
            #expect(try await me(other) == nil)
        }
    }

    /// Signs in and returns the session cookie.
    func logIn(_ client: some TestClientProtocol, username: String, password: String) async throws -> String {
        let answer = try await client.execute(
            uri: "/api/v1/account/login", method: .post, headers: .json(), body: body(["username": username, "password": password]))
        return try #require(answer.sessionCookie)
    }

    /// `/metrics` is for the operator's scraper: with a token configured only a request bearing it is answered; with
    /// none, only one from this machine (here the test client has no address, as a proxied request would not count).
    @Test func metricsAnswerOnlyTheOperatorsScraper() async throws {
        try await TestDatabase.with(.sqlite) { database in
            var configuration = testConfiguration
            configuration.metricsToken = "scrape-me"
            let app = try await buildApplication(configuration, database: database)
            try await app.test(.router) { client in
                #expect(try await client.execute(uri: "/metrics", method: .get).status == .notFound)
                var wrong = HTTPFields()
                wrong[.authorization] = "Bearer guess"
                #expect(try await client.execute(uri: "/metrics", method: .get, headers: wrong).status == .notFound)
                var right = HTTPFields()
                right[.authorization] = "Bearer scrape-me"
                let metrics = try await client.execute(uri: "/metrics", method: .get, headers: right)
                #expect(metrics.status == .ok && metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            }
            let open = try await buildApplication(testConfiguration, database: database)
            try await open.test(.router) { client in
                let status = try await client.execute(uri: "/metrics", method: .get).status
                #expect(status == .notFound)
            }
        }
    }

    /// A guest made by one request without a cookie gets a session of a day; the visitor's next request extends it to
    /// the usual thirty, so only clients that never come back leave a guest for long (issue 56 #11).
    @Test func aOneRequestGuestLastsADayUntilTheVisitorComesBack() async throws {
        try await withTestApp(.sqlite) { client, database in
            func expiry() async throws -> Double {
                let row = try await database.sql.select().column("expires_at").from("sessions").first()
                let milliseconds = try #require(try row?.decode(column: "expires_at", as: Int64.self))
                return Double(milliseconds) / 1000 - Date().timeIntervalSince1970
            }
            let cookie = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            #expect((86_000...86_400).contains(try await expiry()))
            let again = try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(cookie))
            #expect(again.status == .ok && again.sessionCookie == cookie)
            #expect(try await expiry() > 29 * 86_400)
        }
    }
}
