import ChooseYourDestiny
import Foundation
import Storage

/// The Choose Your Destiny part of the account export: the library, reading progress and own stories
/// (in story.json form, so they can be published elsewhere).
struct StoriesExportSection: ProfileDataSection {
    let stories: StoryRepository
    let key = "stories"

    struct Export: Encodable, Sendable {
        struct Progress: Encodable, Sendable {
            let storyID: String
            let path: [String]
            let endingsFound: [String]
        }

        let library: [String]
        let progress: [Progress]
        let published: [String]
    }

    func export(profileID: String) async throws -> any Encodable & Sendable {
        var progress: [Export.Progress] = []
        var published: [String] = []
        for stored in try await stories.all() {
            if let (saved, _) = try await stories.progress(storyID: stored.id, profileID: profileID) {
                progress.append(.init(storyID: stored.id, path: saved.path, endingsFound: saved.endingsFound))
            }
            if stored.ownerProfileID == profileID { published.append(StoryFile.write(stored.story)) }
        }
        return Export(library: try await stories.library(profileID: profileID), progress: progress, published: published)
    }
}
