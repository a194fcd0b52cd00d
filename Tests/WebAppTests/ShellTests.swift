import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TestSupport
import Testing

@testable import WebApp

@Suite struct ShellTests {
    @Test func homePageListsTheFiveApps() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let response = try await client.execute(uri: "/", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            for path in ["/strategies", "/yoga", "/stories", "/poetry", "/cities"] {
                #expect(response.bodyText.contains("href=\"\(path)\""), "missing link to \(path)")
            }
            // The first visit gives the visitor a guest profile.
            #expect(response.sessionCookie?.count == 43)
        }
    }

    /// A card of one's own is shown on its permalink page as written: markup in it is text, not markup.
    @Test func templatesEscapeWhatTheyShow() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let cookie = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            let text = #"<script>alert("x")</script> & <b>bold</b>"#
            let created = try await client.execute(
                uri: "/api/v1/strategies/mine", method: .post, headers: .json(cookie: cookie),
                body: body(["strategy": text]))
            let id = try #require(try created.json()["id"] as? Int)
            let page = try await client.execute(uri: "/strategies/\(id)", method: .get, headers: .session(cookie))
            #expect(page.status == .ok)
            #expect(page.bodyText.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;"))
            #expect(!page.bodyText.contains("<script>alert"))
            #expect(!page.bodyText.contains("<b>bold"))
        }
    }

    @Test func versionedAssetsAreImmutableAndRevalidate() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let home = try await client.execute(uri: "/", method: .get).bodyText
            let range = try #require(home.range(of: #"/static/[0-9a-f]{12}/css/app\.css"#, options: .regularExpression))
            let url = String(home[range])
            let css = try await client.execute(uri: url, method: .get)
            #expect(css.status == .ok)
            #expect(css.headers[.contentType] == "text/css; charset=utf-8")
            #expect(css.headers[.cacheControl]?.contains("immutable") == true)
            let etag = try #require(css.headers[.eTag])
            let again = try await client.execute(uri: url, method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            let unversioned = try await client.execute(uri: "/static/css/app.css", method: .get)
            #expect(unversioned.status == .ok)
            #expect(unversioned.headers[.cacheControl] == "no-cache")
        }
    }

    @Test(arguments: [
        "/static/../Package.swift", "/static/%2e%2e/%2e%2e/Package.swift", "/static/..%2f..%2fPackage.swift",
        "/static/css/../../Templates/home.mustache", "/static//etc/passwd",
    ])
    func pathTraversalFindsNothing(path: String) async throws {
        try await withTestApp(.sqlite) { client, _ in
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .notFound)
        }
    }

    @Test func manifestAndServiceWorkerAreServedFromTheRoot() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let manifest = try await client.execute(uri: "/manifest.webmanifest", method: .get)
            #expect(manifest.status == .ok)
            #expect(manifest.headers[.contentType]?.hasPrefix("application/manifest+json") == true)
            #expect(try manifest.json()["name"] as? String == "Trove")
            let worker = try await client.execute(uri: "/sw.js", method: .get)
            #expect(worker.status == .ok)
            #expect(worker.headers[.contentType]?.hasPrefix("text/javascript") == true)
        }
    }

    /// Pages are rendered once and kept (RenderedPages): one person's page must never be shown to another.
    @Test func aKeptPageShowsEachVisitorTheirOwnShell() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let guestFirst = try await client.execute(uri: "/strategies", method: .get)
            let ada = try await signUp(client, username: "ada")
            let grace = try await signUp(client, username: "grace")
            for _ in 0..<2 {
                let asAda = try await client.execute(uri: "/strategies", method: .get, headers: .session(ada)).bodyText
                let asGrace = try await client.execute(uri: "/strategies", method: .get, headers: .session(grace)).bodyText
                #expect(asAda.contains("ada") && !asAda.contains("grace"))
                #expect(asGrace.contains("grace") && !asGrace.contains("ada"))
            }
            let guestAgain = try await client.execute(uri: "/strategies", method: .get)
            #expect(guestAgain.bodyText == guestFirst.bodyText)
            #expect(!guestAgain.bodyText.contains("ada") && !guestAgain.bodyText.contains("grace"))
        }
    }

    @Test(arguments: ["/health", "/", "/strategies", "/api/v1/strategies", "/manifest.webmanifest"])
    func headIsGetWithoutTheBody(path: String) async throws {
        try await withTestApp(.sqlite) { client, _ in
            let get = try await client.execute(uri: path, method: .get)
            let head = try await client.execute(uri: path, method: .head, headers: get.sessionCookie.map { .session($0) } ?? [:])
            #expect(head.status == .ok && head.body.readableBytes == 0)
            #expect(head.headers[.contentType] == get.headers[.contentType])
            #expect(head.headers[.contentLength] == String(get.body.readableBytes))
        }
    }

    @Test func accountPagesRenderTheirFormsAndWhoIsSignedIn() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let forms = [("/signup", #"id="signup-form""#), ("/login", #"id="login-form""#), ("/account", #"id="delete-profile""#)]
            for (path, form) in forms {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
                #expect(response.bodyText.contains(form), "\(path) shows its form")
                #expect(response.bodyText.contains(#"href="/login"><span>Sign in</span>"#), "\(path): a guest is offered to sign in")
            }
            let cookie = try await signUp(client, username: "ada")
            let account = try await client.execute(uri: "/account", method: .get, headers: .session(cookie))
            #expect(account.bodyText.contains("<span>ada</span>"))
            #expect(!account.bodyText.contains("<span>Sign in</span>"))
            // Signed in, the forms to sign in or up lead to the profile's page (their answer was "sign out first").
            for path in ["/signup", "/login", "/login?next=%2Fpoetry"] {
                let form = try await client.execute(uri: path, method: .get, headers: .session(cookie))
                #expect(form.status == .seeOther && form.headers[.location] == "/account", "\(path)")
            }
        }
    }

    /// An error page says who is signed in, as every page does, and leads back to the app it belongs to.
    @Test func errorPagesShowWhoIsSignedInAndTheWayBackToTheirApp() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let cookie = try await signUp(client, username: "ada")
            let cases = [
                ("/poetry/p/no-such-poem", "/poetry", "Back to Magnetic Poetry"),
                ("/stories/no-such-story", "/stories", "Back to Choose Your Destiny"),
                ("/no-such-page", "/", "Back to Trove"),
            ]
            for (path, href, label) in cases {
                let page = try await client.execute(
                    uri: path, method: .get, headers: [.accept: "text/html", .cookie: "trove_session=\(cookie)"])
                #expect(page.status == .notFound, "\(path)")
                #expect(page.bodyText.contains("<span>ada</span>"), "\(path) shows who is signed in")
                #expect(!page.bodyText.contains("<span>Sign in</span>"), "\(path)")
                #expect(page.bodyText.contains(#"href="\#(href)">\#(label)</a>"#), "\(path): \(page.bodyText)")
            }
        }
    }
}

@Suite struct OpenAPIDocumentTests {
    @Test func documentAndRoutesNameTheSameOperations() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let routes = Self.operations(of: try await buildRouter(testConfiguration, database: database, logger: Logger(label: "test")))
            let documented = try Self.documentedOperations()
            #expect(routes.subtracting(documented).isEmpty, "routes missing from openapi.json: \(routes.subtracting(documented).sorted())")
            #expect(documented.subtracting(routes).isEmpty, "documented but not routed: \(documented.subtracting(routes).sorted())")
        }
    }

    @Test func documentIsServedAsOpenAPI31() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let response = try await client.execute(uri: "/api/openapi.json", method: .get)
            #expect(response.status == .ok)
            #expect(try response.json()["openapi"] as? String == "3.1.0")
        }
    }

    /// One API convention (docs/ARCHITECTURE.md): every property of every schema is snake_case, except under the
    /// Monks-compatible `/api/oblique/…` routes, which keep the original API's shape.
    @Test func everyPropertyIsSnakeCase() throws {
        var document = try Self.document()
        document["paths"] = (document["paths"] as? [String: Any] ?? [:]).filter { !$0.key.hasPrefix("/api/oblique/") }
        var found: Set<String> = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let properties = object["properties"] as? [String: Any] {
                    found.formUnion(properties.keys.filter { $0.contains(where: \.isUppercase) })
                }
                object.values.forEach(walk)
            } else if let list = value as? [Any] {
                list.forEach(walk)
            }
        }
        walk(document)
        #expect(found.isEmpty, "camelCase properties in openapi.json: \(found.sorted())")
    }

    static func document() throws -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/WebApp/APIDocument/openapi.json")
        return try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
    }

    /// The router's API operations: every route under `/api/` but the document itself, and the two monitoring routes
    /// (`/health`, `/ready`), as "get /api/v1/poetry/poems/{id}".
    static func operations(of router: Router<TroveRequestContext>) -> Set<String> {
        Set(
            router.routes.map { (method: $0.method.rawValue.lowercased(), path: $0.path.description) }
                .filter { ($0.path.hasPrefix("/api/") && $0.path != "/api/openapi.json") || ["/health", "/ready"].contains($0.path) }
                .map { "\($0.method) \($0.path)" })
    }

    static func documentedOperations() throws -> Set<String> {
        let document = try Self.document()
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
        return Set(paths.flatMap { path, operations in operations.keys.filter(methods.contains).map { "\($0) \(path)" } })
    }
}
