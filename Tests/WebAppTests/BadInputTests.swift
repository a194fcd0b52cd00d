import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

/// Every malformed request gets its clear 4xx JSON error, and writes nothing.
@Suite struct BadInputTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let contentType: String?
        let body: String
        let status: HTTPResponse.Status
        let code: String
        var description: String { name }
    }

    static let signUpCases: [Case] = [
        Case(name: "malformed JSON", contentType: "application/json", body: "{\"username\": ", status: .badRequest, code: "malformed_json"),
        Case(name: "empty body", contentType: "application/json", body: "", status: .badRequest, code: "malformed_json"),
        Case(
            name: "form post", contentType: "application/x-www-form-urlencoded", body: "username=a&password=b",
            status: .unsupportedMediaType, code: "unsupported_media_type"),
        Case(name: "no content type", contentType: nil, body: "{}", status: .unsupportedMediaType, code: "unsupported_media_type"),
        Case(
            name: "missing field", contentType: "application/json", body: "{\"username\":\"ada\"}", status: .unprocessableContent,
            code: "validation_failed"),
        Case(
            name: "wrong type", contentType: "application/json", body: "{\"username\":1,\"password\":\"long enough\"}",
            status: .unprocessableContent, code: "validation_failed"),
        Case(name: "array body", contentType: "application/json", body: "[1,2]", status: .unprocessableContent, code: "validation_failed"),
        Case(
            name: "short password", contentType: "application/json", body: "{\"username\":\"ada\",\"password\":\"short\"}",
            status: .unprocessableContent, code: "invalid_password"),
        Case(
            name: "bad username", contentType: "application/json", body: "{\"username\":\"<script>\",\"password\":\"long enough\"}",
            status: .unprocessableContent, code: "invalid_username"),
        Case(
            name: "too large", contentType: "application/json", body: "{\"username\":\"" + String(repeating: "a", count: 2 << 20) + "\"}",
            status: .contentTooLarge, code: "body_too_large"),
    ]

    @Test(arguments: DatabaseKind.allCases, signUpCases)
    func signUpRefusesBadInputWithoutWriting(kind: DatabaseKind, testCase: Case) async throws {
        try await withTestApp(kind) { client, database in
            var headers = HTTPFields()
            if let type = testCase.contentType { headers[.contentType] = type }
            let response = try await client.execute(
                uri: "/api/v1/account/signup", method: .post, headers: headers,
                body: ByteBuffer(string: testCase.body))
            #expect(response.status == testCase.status, "\(testCase.name)")
            #expect(response.errorCode == testCase.code, "\(testCase.name): \(response.bodyText.prefix(200))")
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(try await profileCount(database) == 0, "\(testCase.name) wrote a profile")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aTakenUsernameIs409AndChangesNothing(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, database in
            _ = try await signUp(client, username: "ada")
            let response = try await client.execute(
                uri: "/api/v1/account/signup", method: .post, headers: .json(),
                body: body(["username": "ADA", "password": "another password"]))
            #expect(response.status == .conflict)
            #expect(response.errorCode == "username_taken")
            #expect(try await profileCount(database) == 1)
        }
    }

    @Test func unknownAPIRoutesAre404JSON() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let response = try await client.execute(uri: "/api/v1/nothing-here", method: .get, headers: [.accept: "text/html"])
            #expect(response.status == .notFound)
            #expect(response.errorCode == "not_found")
        }
    }

    @Test func aKnownPathWithAnotherMethodIs405SayingWhichMethodsItTakes() async throws {
        try await withTestApp(.sqlite) { client, database in
            let draw = try await client.execute(uri: "/api/v1/strategies/random", method: .delete, headers: .json())
            #expect(draw.status == .methodNotAllowed)
            #expect(draw.errorCode == "method_not_allowed")
            #expect(draw.headers[.allow] == "GET, HEAD, POST")
            // A literal segment wins over a capture, as in the router: "random" is not a card id here.
            let poem = try await client.execute(uri: "/api/v1/poetry/poems/some-id", method: .patch, headers: .json())
            #expect(poem.status == .methodNotAllowed)
            #expect(poem.headers[.allow] == "DELETE, GET, HEAD, PUT")
            let page = try await client.execute(uri: "/strategies", method: .delete, headers: [.accept: "text/html"])
            #expect(page.status == .methodNotAllowed)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            // Paths no route has, and an owned thing not found, are still 404.
            #expect(try await client.execute(uri: "/api/v1/strategies/random/x", method: .delete, headers: .json()).status == .notFound)
            #expect(try await client.execute(uri: "/api/v1/poetry/poems/some-id", method: .get, headers: .json()).status == .notFound)
            #expect(try await profileCount(database) == 0)
        }
    }

    @Test func unknownPagesAre404HTMLForBrowsers() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let response = try await client.execute(uri: "/no-such-page", method: .get, headers: [.accept: "text/html,*/*"])
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(response.bodyText.contains("404"))
        }
    }

    @Test func signedInUsersCannotSignUpAgain() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let cookie = try await signUp(client, username: "fay")
            let response = try await client.execute(
                uri: "/api/v1/account/signup", method: .post, headers: .json(cookie: cookie),
                body: body(["username": "fay2", "password": "correct horse"]))
            #expect(response.status == .conflict)
            #expect(response.errorCode == "already_signed_in")
        }
    }

    private func profileCount(_ database: Database) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("profiles")
            .where("username", .isNot, SQLLiteral.null).first()?.decode(column: "n", as: Int.self) ?? -1
    }
}
