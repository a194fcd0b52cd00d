import ChooseYourDestiny
import Foundation

/// Finds the stories the original app's authors published on GitHub: for each author (a GitHub user
/// name from `authors.json`), their repositories whose README carries `#ChooseYourDestiny`, and each one's
/// `story.json` with its pictures. Anonymous code search is no longer allowed, so it reads each author's
/// repository list and raw files: about 1 + 2 requests per repository, within GitHub's anonymous limit
/// for a handful of authors; a token raises the limit.
public struct GitHubStories: Sendable {
    public static let defaultAPIURL = URL(string: "https://api.github.com")!
    public static let defaultRawURL = URL(string: "https://raw.githubusercontent.com")!
    public static let tag = "#ChooseYourDestiny"

    let apiURL: URL
    let rawURL: URL
    let token: String?
    let fetcher: JSONFetcher

    public init(apiURL: URL = defaultAPIURL, rawURL: URL = defaultRawURL, token: String? = nil, fetcher: JSONFetcher) {
        self.apiURL = apiURL
        self.rawURL = rawURL
        self.token = token
        self.fetcher = fetcher
    }

    /// The original authors list: `{"authors":[{"name":"<github user>"}]}` (trailing commas allowed).
    public static func authors(from text: String) throws(StoryFile.FormatError) -> [String] {
        guard case .array(let entries)? = (try? LenientJSON.parse(text))?["authors"] else {
            throw StoryFile.FormatError(description: "authors.json must be {\"authors\": [{\"name\": \"<github user>\"}, …]}")
        }
        return entries.compactMap { if case .string(let name)? = $0["name"], !name.isEmpty { name } else { nil } }
    }

    public struct Found: Sendable {
        public let repository: String
        public let accepted: StoryIntake.Accepted
        /// Pictures named by relative `pic_path`s, by their name under `resources/`.
        public let pictures: [(name: String, bytes: [UInt8])]
    }

    public enum Outcome: Sendable {
        case found(Found)
        /// Not a story (no tag in the README), or a fork.
        case skipped(repository: String, reason: String)
        case failed(repository: String, reason: String)
    }

    struct Repository: Decodable, Sendable {
        let name: String
        let full_name: String
        let default_branch: String?
        let fork: Bool?
    }

    /// Everything found for one author. Throws when GitHub cannot be reached at all for the list.
    public func stories(of author: String) async throws(ProviderError) -> [Outcome] {
        let user = author.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? author
        var components = URLComponents(url: apiURL.appendingPathComponent("users/\(user)/repos"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "per_page", value: "100")]
        let repositories = try await fetcher.get([Repository].self, from: components.url!, headers: headers)
        var outcomes: [Outcome] = []
        for repository in repositories {
            if repository.fork == true {
                outcomes.append(.skipped(repository: repository.full_name, reason: "a fork"))
                continue
            }
            outcomes.append(await story(in: repository))
        }
        return outcomes
    }

    func story(in repository: Repository) async -> Outcome {
        let branch = repository.default_branch ?? "master"
        do {
            let readme = String(decoding: try await raw(repository.full_name, branch, "README.md"), as: UTF8.self)
            guard readme.contains(Self.tag) else {
                return .skipped(repository: repository.full_name, reason: "its README has no \(Self.tag)")
            }
            let text = String(decoding: try await raw(repository.full_name, branch, "story.json"), as: UTF8.self)
            let accepted: StoryIntake.Accepted
            do {
                accepted = try StoryIntake.accept(text, format: .storyJSON)
            } catch {
                return .failed(repository: repository.full_name, reason: Self.describe(error))
            }
            var pictures: [(name: String, bytes: [UInt8])] = []
            let paths = Set(([accepted.story.picPath] + accepted.story.chapters.map(\.picPath)).compactMap { $0 })
            for path in paths.sorted() where !path.contains("://") && !path.contains("..") {
                // A missing picture leaves a placeholder; it does not lose the story.
                if let bytes = try? await raw(repository.full_name, branch, path) {
                    pictures.append((path.hasPrefix("resources/") ? String(path.dropFirst("resources/".count)) : path, bytes))
                }
            }
            return .found(Found(repository: repository.full_name, accepted: accepted, pictures: pictures))
        } catch {
            return .failed(repository: repository.full_name, reason: Self.describe(error))
        }
    }

    func raw(_ fullName: String, _ branch: String, _ path: String) async throws(ProviderError) -> [UInt8] {
        try await fetcher.bytes(
            from: rawURL.appendingPathComponent(fullName).appendingPathComponent(branch).appendingPathComponent(path), headers: headers)
    }

    var headers: [(String, String)] {
        [("X-GitHub-Api-Version", "2022-11-28")] + (token.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    public static func describe(_ error: any Error) -> String {
        switch error {
        case ProviderError.badStatus(404): "not found"
        case ProviderError.badStatus(403), ProviderError.badStatus(429): "GitHub's rate limit is used up: try later, or configure a token"
        case ProviderError.timedOut: "GitHub did not answer in time"
        case let StoryError.invalid(problems): "not a valid story: " + problems.joined(separator: " ")
        case let StoryError.unreadable(message): message
        default: String(describing: error)
        }
    }
}
