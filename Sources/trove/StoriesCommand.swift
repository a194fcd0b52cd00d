import ArgumentParser
import ChooseYourDestiny
import Foundation
import Providers
import Storage

/// `trove stories sync`: imports the stories the original app's authors published on GitHub.
struct Stories: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Choose Your Destiny's stories.", subcommands: [Sync.self])

    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import the stories of the authors in an authors.json ({\"authors\":[{\"name\":\"<github user>\"}]}) from GitHub."
        )

        @Option(help: "The authors list, in the original app's authors.json format.")
        var authors: String

        @Option(help: "GitHub's API address. Default: https://api.github.com, or $GITHUB_API_URL.")
        var githubApiUrl: String?

        @Option(help: "Where raw files are read. Default: https://raw.githubusercontent.com, or $GITHUB_RAW_URL.")
        var githubRawUrl: String?

        @Option(help: "A GitHub token, for a higher rate limit. Default: $GITHUB_TOKEN.")
        var githubToken: String?

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let settings = try database.settings()
            guard let text = FileManager.default.contents(atPath: authors).map({ String(decoding: $0, as: UTF8.self) }) else {
                throw CleanExit.failure("Cannot read the authors list '\(authors)'.")
            }
            let names: [String]
            do { names = try GitHubStories.authors(from: text) } catch { throw CleanExit.failure("'\(authors)': \(error.description)") }
            let github = GitHubStories(
                apiURL: try Self.url(githubApiUrl ?? settings["GITHUB_API_URL"], default: GitHubStories.defaultAPIURL),
                rawURL: try Self.url(githubRawUrl ?? settings["GITHUB_RAW_URL"], default: GitHubStories.defaultRawURL),
                token: githubToken ?? settings["GITHUB_TOKEN"], fetcher: JSONFetcher(timeout: .seconds(10), maximumBytes: 5 << 20)
            )
            let db = try await CommandDatabase.open(database)
            let repository = StoryRepository(database: db.sql)
            var imported = 0
            var unreachable = 0
            for author in names {
                let outcomes: [GitHubStories.Outcome]
                do {
                    outcomes = try await github.stories(of: author)
                } catch {
                    // GitHub out of reach: say so and keep what was imported before.
                    print("\(author): GitHub could not be reached (\(GitHubStories.describe(error))); kept what Trove has.")
                    unreachable += 1
                    continue
                }
                for outcome in outcomes {
                    switch outcome {
                    case .found(let found):
                        do {
                            try await repository.save(
                                id: found.accepted.id, story: found.accepted.story, owner: nil, source: "github:\(found.repository)",
                                resources: try found.pictures.compactMap { picture in
                                    try StoryPictures.contentType(name: picture.name, bytes: picture.bytes).map {
                                        StoryRepository.Resource(name: picture.name, contentType: $0, bytes: picture.bytes)
                                    }
                                }
                            )
                            imported += 1
                            print("\(found.repository): imported \"\(found.accepted.story.name)\" as \(found.accepted.id).")
                        } catch {
                            print("\(found.repository): not saved (\(error)).")
                        }
                    case .skipped(let repository, let reason):
                        print("\(repository): skipped, \(reason).")
                    case .failed(let repository, let reason):
                        print("\(repository): failed, \(reason).")
                    }
                }
            }
            await db.shutdown()
            print("Imported \(imported) stories from \(names.count - unreachable) of \(names.count) authors.")
            if unreachable == names.count, !names.isEmpty { throw ExitCode(2) }
        }

        static func url(_ text: String?, default fallback: URL) throws -> URL {
            guard let text else { return fallback }
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                throw CleanExit.failure("'\(text)' is not an http or https address.")
            }
            return url
        }
    }
}
