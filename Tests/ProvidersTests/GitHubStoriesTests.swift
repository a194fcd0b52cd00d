import ChooseYourDestiny
import Foundation
import Hummingbird
import HummingbirdTesting
import Providers
import Testing

/// The GitHub story source against a fake GitHub: one good story with a picture, a fork, a repository
/// without the tag, a broken story.json, a missing one, and one whose files never come.
@Suite struct GitHubStoriesTests {
    static let story =
        #"{"story": {"id": 1, "name": "The Pub", "pic_path": "resources/pub.svg", "chapters": [{"id": 1, "is_first_chapter": true, "text": "In.", "choices": [{"chapter_id": 2, "text": "Out",},]}, {"id": 2, "text": "Out."},],}}"#

    func withFakeGitHub(_ body: @Sendable @escaping (URL) async throws -> Void) async throws {
        let router = Router()
        router.get("/users/ada/repos") { request, _ in
            #expect(request.uri.queryParameters.get("per_page") == "100")
            #expect(request.headers[.authorization] == "Bearer secret")
            let repos = [
                ("pub", false), ("forked", true), ("notes", false), ("broken", false), ("missing", false), ("slow", false),
            ].map { #"{"name":"\#($0.0)","full_name":"ada/\#($0.0)","default_branch":"main","fork":\#($0.1)}"# }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "[" + repos.joined(separator: ",") + "]")))
        }
        router.get("/users/ghost/repos") { _, _ in Response(status: .forbidden, headers: [.init("x-ratelimit-remaining")!: "0"]) }
        router.get("/ada/{repo}/main/**") { request, context in
            let repo = context.parameters.get("repo") ?? ""
            let path = context.parameters.getCatchAll().joined(separator: "/")
            let readme = "# My story\n\n#ChooseYourDestiny\n"
            switch (repo, path) {
            case ("notes", "README.md"): return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "Just notes.")))
            case ("slow", _):
                try await Task.sleep(for: .seconds(30))
                return Response(status: .ok)
            case (_, "README.md"): return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: readme)))
            case ("pub", "story.json"): return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: Self.story)))
            case ("pub", "resources/pub.svg"): return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<svg/>")))
            case ("broken", "story.json"):
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "{\"story\": {\"id\": 1, \"chapters\": []}}")))
            default: return Response(status: .notFound)
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(URL(string: "http://127.0.0.1:\(client.port!)")!) }
    }

    @Test func importsTaggedStoriesAndSaysWhyOthersWereNot() async throws {
        try await withFakeGitHub { base in
            let github = GitHubStories(apiURL: base, rawURL: base, token: "secret", fetcher: JSONFetcher(timeout: .seconds(10)))
            let outcomes = try await github.stories(of: "ada")
            var found: [String] = []
            var skipped: [String: String] = [:]
            var failed: [String: String] = [:]
            for outcome in outcomes {
                switch outcome {
                case .found(let story):
                    found.append(story.repository)
                    #expect(story.accepted.id == "the-pub" && story.accepted.story.chapters.count == 2)
                    #expect(story.pictures.map(\.name) == ["pub.svg"] && story.pictures.first?.bytes == Array("<svg/>".utf8))
                case .skipped(let repository, let reason): skipped[repository] = reason
                case .failed(let repository, let reason): failed[repository] = reason
                }
            }
            #expect(found == ["ada/pub"])
            #expect(skipped["ada/forked"] == "a fork" && skipped["ada/notes"]?.contains("#ChooseYourDestiny") == true)
            #expect(failed["ada/broken"]?.contains("no chapters") == true)
            #expect(failed["ada/missing"] == "not found")
            #expect(failed["ada/slow"] == "GitHub did not answer in time")
            await #expect(throws: ProviderError.badStatus(403)) { try await github.stories(of: "ghost") }
        }
    }

    @Test func readsTheOriginalAuthorsList() throws {
        #expect(try GitHubStories.authors(from: #"{"authors": [{"name": "ada"}, {"name": "bob"},]}"#) == ["ada", "bob"])
        #expect(throws: StoryFile.FormatError.self) { try GitHubStories.authors(from: "[]") }
    }
}
