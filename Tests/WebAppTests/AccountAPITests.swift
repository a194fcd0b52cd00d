import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@Suite struct AccountAPITests {
    @Test(arguments: DatabaseKind.allCases)
    func healthNamesTheDatabase(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            #expect(try response.json() as? [String: String] == ["status": "ok", "database": kind.rawValue])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func readyOnceTheDatabaseAnswersAndTheCityCatalogIsBuilt(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            var ready = try await client.execute(uri: "/ready", method: .get)
            for _ in 0..<100 where ready.status != .ok {
                // Not ready yet: the catalog is building, or (a loaded machine) the database took over its 2 s.
                let body = try ready.json()
                #expect(
                    ready.status == .serviceUnavailable
                        && (body["city_catalog"] as? String == "building" || body["database"] as? String == "not_answering"),
                    "\(body)")
                try await Task.sleep(for: .milliseconds(100))
                ready = try await client.execute(uri: "/ready", method: .get)
            }
            #expect(ready.status == .ok)
            #expect(try ready.json() as? [String: String] == ["status": "ready", "database": "ok", "city_catalog": "ok"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aGuestSignsUpKeepingTheProfileAndGetsANewSessionID(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let first = try await client.execute(uri: "/api/v1/account/me", method: .get)
            let guestCookie = try #require(first.sessionCookie)
            let guestID = try #require(first.profile?["id"] as? String)
            #expect(first.profile?["is_guest"] as? Bool == true)
            #expect(first.headers[values: .setCookie].first?.contains("HttpOnly") == true)
            #expect(first.headers[values: .setCookie].first?.contains("SameSite=Lax") == true)

            let signUp = try await client.execute(
                uri: "/api/v1/account/signup", method: .post, headers: .json(cookie: guestCookie),
                body: body(["username": "Ada", "password": "correct horse"]))
            #expect(signUp.status == .created)
            #expect(signUp.profile?["id"] as? String == guestID)
            #expect(signUp.profile?["username"] as? String == "ada")
            let accountCookie = try #require(signUp.sessionCookie)
            #expect(accountCookie != guestCookie)

            let me = try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(accountCookie))
            #expect(me.profile?["username"] as? String == "ada")
            // The guest session id died at sign-up: using it again starts a new guest.
            let old = try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(guestCookie))
            #expect(old.profile?["id"] as? String != guestID)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func signInReachesTheSameProfileAndSignOutEndsTheSession(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let firstDevice = try await signUp(client, username: "bea")
            let accountID =
                try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(firstDevice)).profile?["id"] as? String

            let login = try await client.execute(
                uri: "/api/v1/account/login", method: .post, headers: .json(),
                body: body(["username": " BEA ", "password": "correct horse"]))
            #expect(login.status == .ok)
            #expect(login.profile?["id"] as? String == accountID)
            let secondDevice = try #require(login.sessionCookie)

            let logout = try await client.execute(uri: "/api/v1/account/logout", method: .post, headers: .session(secondDevice))
            #expect(logout.status == .noContent)
            #expect(logout.sessionCookie == "")
            let after = try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(secondDevice))
            #expect(after.profile?["is_guest"] as? Bool == true)
            // The other device is still signed in.
            let other = try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(firstDevice))
            #expect(other.profile?["username"] as? String == "bea")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func wrongPasswordsAre401ThenThrottled(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            _ = try await signUp(client, username: "cy")
            // The last tries are announced before sign-in waits.
            let warnings = [
                "Wrong username or password.", "Wrong username or password.",
                "Wrong username or password. 2 more tries before sign-in waits 15 minutes.",
                "Wrong username or password. 1 more try before sign-in waits 15 minutes.",
                "Wrong username or password. That was the last try for now: sign-in waits 15 minutes.",
            ]
            for warning in warnings {
                let wrong = try await client.execute(
                    uri: "/api/v1/account/login", method: .post, headers: .json(),
                    body: body(["username": "cy", "password": "wrong password"]))
                #expect(wrong.status == .unauthorized)
                #expect(wrong.errorCode == "wrong_credentials")
                #expect(wrong.errorMessage == warning)
                #expect(wrong.sessionCookie == nil)
            }
            let throttled = try await client.execute(
                uri: "/api/v1/account/login", method: .post, headers: .json(),
                body: body(["username": "cy", "password": "correct horse"]))
            #expect(throttled.status == .tooManyRequests)
            #expect(Int(throttled.headers[.retryAfter] ?? "") ?? 0 > 0)
            // An unknown username answers exactly like a wrong password.
            let unknown = try await client.execute(
                uri: "/api/v1/account/login", method: .post, headers: .json(),
                body: body(["username": "nobody", "password": "whatever1"]))
            #expect(unknown.status == .unauthorized)
            #expect(unknown.errorMessage == "Wrong username or password.")
        }
    }

    /// A sign-up whose answer was lost (a reload, a phone's network) and is sent again signs in to the account it
    /// made; another password finds the name taken, and counts as a failed sign-in.
    @Test(arguments: DatabaseKind.allCases)
    func aSignUpSentAgainSignsInToTheAccountItMade(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            func signUp(_ password: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/api/v1/account/signup", method: .post, headers: .json(),
                    body: body(["username": "Fay", "password": password]))
            }
            #expect(try await signUp("correct horse").status == .created)
            let again = try await signUp("correct horse")
            #expect(again.status == .ok)
            #expect(again.profile?["username"] as? String == "fay")
            let cookie = try #require(again.sessionCookie)
            let me = try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(cookie))
            #expect(me.profile?["username"] as? String == "fay")
            for _ in 1...5 {
                let taken = try await signUp("another horse")
                #expect(taken.status == .conflict)
                #expect(taken.errorCode == "username_taken")
                #expect(taken.sessionCookie == nil)
            }
            #expect(try await signUp("correct horse").status == .tooManyRequests, "sign-up is no way around the throttle")
        }
    }

    /// Someone guessing a username's password locks it for every browser but those that signed in to the account
    /// before (their `trove_device` cookie); such a browser is throttled on its own failures.
    @Test(arguments: DatabaseKind.allCases)
    func aBrowserThatSignedInBeforeSignsInWhileTheUsernameIsThrottled(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            func logIn(password: String, device: String? = nil) async throws -> TestResponse {
                var headers = HTTPFields.json()
                if let device { headers[.cookie] = "trove_device=\(device)" }
                return try await client.execute(
                    uri: "/api/v1/account/login", method: .post, headers: headers, body: body(["username": "eve", "password": password]))
            }
            let signUp = try await client.execute(
                uri: "/api/v1/account/signup", method: .post, headers: .json(),
                body: body(["username": "eve", "password": "correct horse"]))
            let fromSignUp = try #require(signUp.deviceCookie)
            #expect(
                signUp.headers[values: .setCookie].contains {
                    $0.hasPrefix("trove_device=") && $0.contains("Path=/api/v1/account") && $0.contains("HttpOnly")
                })
            // The phone signs in again: its token is replaced by a new one.
            let phone = try #require(try await logIn(password: "correct horse", device: fromSignUp).deviceCookie)
            #expect(phone != fromSignUp)
            for _ in 1...5 { #expect(try await logIn(password: "a guess").status == .unauthorized) }
            #expect(try await logIn(password: "correct horse").status == .tooManyRequests)
            #expect(
                try await logIn(password: "correct horse", device: fromSignUp).status == .tooManyRequests, "a replaced token is not known")
            #expect(
                try await logIn(password: "correct horse", device: "x".padding(toLength: 43, withPad: "y", startingAt: 0)).status
                    == .tooManyRequests)
            // The phone is let in, and its sign-in does not lift the lock for the others.
            let phoneAgain = try await logIn(password: "correct horse", device: phone)
            #expect(phoneAgain.status == .ok)
            #expect(phoneAgain.sessionCookie?.isEmpty == false)
            #expect(try await logIn(password: "correct horse").status == .tooManyRequests)
            // The phone's own wrong passwords throttle the phone.
            let token = try #require(phoneAgain.deviceCookie)
            for _ in 1...5 { #expect(try await logIn(password: "a typo", device: token).status == .unauthorized) }
            #expect(try await logIn(password: "correct horse", device: token).status == .tooManyRequests)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func deletingTheProfileRemovesItsDataAndSession(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, database in
            let cookie = try await signUp(client, username: "dee")
            let delete = try await client.execute(uri: "/api/v1/account", method: .delete, headers: .session(cookie))
            #expect(delete.status == .noContent)
            #expect(delete.sessionCookie == "")
            let count = try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("profiles")
                .where("username", .equal, "dee").first()?.decode(column: "n", as: Int.self)
            #expect(count == 0)
            let login = try await client.execute(
                uri: "/api/v1/account/login", method: .post, headers: .json(),
                body: body(["username": "dee", "password": "correct horse"]))
            #expect(login.status == .unauthorized)
            let again = try await client.execute(uri: "/api/v1/account", method: .delete)
            #expect(again.status == .notFound)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func exportHoldsTheProfile(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await signUp(client, username: "eve")
            let export = try await client.execute(uri: "/api/v1/account/export", method: .get, headers: .session(cookie))
            #expect(export.status == .ok)
            #expect(export.headers[.contentDisposition]?.contains("trove-export.json") == true)
            let json = try export.json()
            #expect(json["format"] as? String == "trove-export/2")
            #expect((json["profile"] as? [String: Any])?["username"] as? String == "eve")
        }
    }
}
