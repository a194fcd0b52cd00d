import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import TestSupport
import Testing

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
}
