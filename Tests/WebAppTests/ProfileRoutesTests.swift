import DatabaseDrivers
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import WebApp

/// Routes on a visitor's own things (`withProfile` groups): a visitor without a profile gets what a visitor with one
/// gets for something that is not theirs, without a profile being made for them or the handler running.
@Suite struct ProfileRoutesTests {
    /// One route of each `withProfile` group, with a body its handler would accept.
    static let routes: [(HTTPRequest.Method, String, String?)] = [
        (.get, "/api/v1/poetry/poems/nope", nil),
        (
            .put, "/api/v1/poetry/poems/nope",
            #"{"version":1,"board":{"word_set_id":"nature","font":"sans","font_scale":1,"magnets":[],"extra_words":[]}}"#
        ),
        (.get, "/api/v1/poetry/poems/nope/background", nil),
        (.delete, "/api/v1/poetry/wordsets/nope", nil),
        (.get, "/api/v1/yoga/students/nope", nil),
        (.delete, "/api/v1/yoga/student-types/nope", nil),
        (.get, "/api/v1/yoga/sessions/nope", nil),
        (.get, "/api/v1/yoga/students/nope/sessions", nil),
        (.delete, "/api/v1/yoga/venues/nope", nil),
        (.patch, "/api/v1/yoga/class", #"{"notes":"x"}"#),
        (.delete, "/api/v1/stories/nope", nil),
        (.put, "/api/v1/cities/collection/3176959/favourite", nil),
        (.delete, "/api/v1/strategies/999999/favourite", nil),
        (.delete, "/api/v1/strategies/mine/1", nil),
        (.patch, "/api/v1/strategies/history/1", #"{"note":"x"}"#),
    ]

    @Test(arguments: DatabaseKind.allCases)
    func aVisitorWithoutAProfileGetsWhatAStrangerGets(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let guest = try #require(try await client.execute(uri: "/", method: .get).sessionCookie)
            for (method, uri, json) in Self.routes {
                let payload = json.map { ByteBuffer(string: $0) }
                let without = try await client.execute(uri: uri, method: method, headers: .json(), body: payload)
                let stranger = try await client.execute(uri: uri, method: method, headers: .json(cookie: guest), body: payload)
                #expect(without.status == stranger.status && without.errorCode == stranger.errorCode, "\(method) \(uri)")
                #expect(without.status.code >= 400 && without.status.code < 500, "\(method) \(uri): \(without.status)")
                #expect(without.sessionCookie == nil, "\(method) \(uri) made a profile")
            }
        }
    }
}
