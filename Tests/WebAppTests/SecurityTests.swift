import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TestSupport
import Testing
import WebApp

@Suite struct SecurityTests {
    @Test func crossSiteStateChangesAreRefused() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let cookie = try await signUp(client, username: "gus")
            var fromEvil = HTTPFields.session(cookie)
            fromEvil[.origin] = "https://evil.example"
            let logout = try await client.execute(uri: "/api/v1/account/logout", method: .post, headers: fromEvil)
            #expect(logout.status == .forbidden)
            #expect(logout.errorCode == "cross_site_request")

            var crossSite = HTTPFields.session(cookie)
            crossSite[HTTPField.Name("Sec-Fetch-Site")!] = "cross-site"
            let delete = try await client.execute(uri: "/api/v1/account", method: .delete, headers: crossSite)
            #expect(delete.status == .forbidden)

            let me = try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(cookie))
            #expect(me.profile?["username"] as? String == "gus")

            var sameOrigin = HTTPFields.session(cookie)
            sameOrigin[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
            let allowed = try await client.execute(uri: "/api/v1/account/logout", method: .post, headers: sameOrigin)
            #expect(allowed.status == .noContent)
        }
    }

    @Test func pagesCarrySecurityHeadersAndNoInlineScriptPolicy() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let response = try await client.execute(uri: "/", method: .get)
            #expect(response.status == .ok)
            let csp = try #require(response.headers[.contentSecurityPolicy])
            #expect(csp.contains("script-src 'self'"))
            #expect(!csp.contains("unsafe-inline"))
            #expect(csp.contains("frame-ancestors 'none'"))
            #expect(response.headers[.xContentTypeOptions] == "nosniff")
            #expect(response.headers[HTTPField.Name("Referrer-Policy")!] != nil)
            #expect(response.headers[HTTPField.Name("X-Request-Id")!]?.isEmpty == false)
            #expect(!response.bodyText.contains("<script>"), "inline script in the home page")
        }
    }

    @Test func oneProfileCannotSeeAnothers() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let ada = try await signUp(client, username: "ada")
            let bob = try await signUp(client, username: "bob")
            let adaMe = try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(ada))
            let bobExport = try await client.execute(uri: "/api/v1/account/export", method: .get, headers: .session(bob))
            #expect(adaMe.profile?["username"] as? String == "ada")
            #expect(!bobExport.bodyText.contains("ada"))
            // A made-up session id of the right shape reaches no one.
            let forged = String(repeating: "A", count: 43)
            let guess = try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(forged))
            #expect(guess.profile?["is_guest"] as? Bool == true)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aSessionStartedOnOneInstanceWorksOnAnother(kind: DatabaseKind) async throws {
        try await TestDatabase.withLocation(kind) { database, location in
            let second = try await Database.open(location, logger: Logger(label: "second"))
            do {
                let appA = try await buildApplication(testConfiguration, database: database)
                let appB = try await buildApplication(testConfiguration, database: second)
                let cookie = try await appA.test(.router) { client in try await signUp(client, username: "hal") }
                try await appB.test(.router) { client in
                    let me = try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(cookie))
                    #expect(me.profile?["username"] as? String == "hal")
                    let logout = try await client.execute(uri: "/api/v1/account/logout", method: .post, headers: .session(cookie))
                    #expect(logout.status == .noContent)
                }
                try await appA.test(.router) { client in
                    let me = try await client.execute(uri: "/api/v1/account/me", method: .get, headers: .session(cookie))
                    #expect(me.profile?["is_guest"] as? Bool == true, "signing out on B ends the session on A too")
                }
                await second.shutdown()
            } catch {
                await second.shutdown()
                throw error
            }
        }
    }
}
