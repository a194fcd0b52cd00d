import ChooseYourDestiny
import Foundation
import SQLKit
import Storage

/// The Choose Your Destiny part of the account export: the library, reading progress and own stories
/// (in story.json form, so they can be published elsewhere).
struct StoriesExportSection: ProfileDataSection {
    let stories: StoryRepository
    let key = "stories"

    struct Export: Codable, Sendable {
        struct Progress: Codable, Sendable {
            let storyID: String
            let path: [String]
            let endingsFound: [String]

            enum CodingKeys: String, CodingKey {
                case storyID = "story_id"
                case path
                case endingsFound = "endings_found"
            }
        }

        let library: [String]
        let progress: [Progress]
        let published: [String]
    }

    func export(profileID: String) async throws -> any Encodable & Sendable {
        // The profile's own places and stories only: an export costs what it holds, not the whole catalog.
        let places = try await stories.allProgress(profileID: profileID)
        let progress = try await stories.listed(ids: Array(places.keys))
            .sorted { ($0.summary.name, $0.id) < ($1.summary.name, $1.id) }
            .compactMap { listed in
                places[listed.id].map { Export.Progress(storyID: listed.id, path: $0.0.path, endingsFound: $0.0.endingsFound) }
            }
        let published = try await stories.published(by: profileID).map { StoryFile.write($0.story) }
        return Export(library: try await stories.library(profileID: profileID), progress: progress, published: published)
    }

    /// Own stories are published here under this account when their id is free; the library and the places kept
    /// follow the stories this server has.
    func importData(_ data: Data, profileID: String, on db: any SQLDatabase, report: inout ImportReport) async throws {
        let part = try JSONBody.decoder.decode(Export.self, from: data)
        let repository = StoryRepository(database: db)
        // Published as an upload is: by an account, checked as an upload is checked, under the id an upload gets.
        let isAccount = try await ProfileRepository(database: db).find(id: profileID).map { !$0.isGuest } ?? false
        if !isAccount, !part.published.isEmpty {
            report.skipped.append("Published stories were not published here: publishing needs an account, and this is a guest's profile.")
        }
        for text in part.published where isAccount {
            let accepted: StoryIntake.Accepted
            do {
                accepted = try StoryIntake.accept(text, format: .storyJSON)
            } catch {
                let problems = error.apiError.details ?? [error.apiError.message]
                report.skipped.append("A published story was not published here: \(problems.joined(separator: " "))")
                continue
            }
            if try await repository.find(id: accepted.id) != nil {
                report.skipped.append("The story “\(accepted.story.name)” was not published here: this server has a story with its id.")
                continue
            }
            try await repository.save(id: accepted.id, story: accepted.story, owner: profileID, source: "upload")
            try await repository.addToLibrary(storyID: accepted.id, profileID: profileID)
            report.add("published_stories")
        }
        // Each story the export names is looked up once.
        var known: [String: Bool] = [:]
        func exists(_ id: String) async throws -> Bool {
            if let found = known[id] { return found }
            let found = try await repository.find(id: id) != nil
            known[id] = found
            return found
        }
        var missing = Set<String>()
        for id in part.library {
            guard try await exists(id) else {
                missing.insert(id)
                continue
            }
            try await repository.addToLibrary(storyID: id, profileID: profileID)
        }
        report.add("stories", try await repository.library(profileID: profileID).count)
        for saved in part.progress {
            guard try await exists(saved.storyID) else {
                missing.insert(saved.storyID)
                continue
            }
            try await repository.saveProgress(
                ReadingProgress(path: saved.path, endingsFound: saved.endingsFound), storyID: saved.storyID, profileID: profileID)
            report.add("reading_places")
        }
        if !missing.isEmpty {
            report.skipped.append(
                "\(missing.count) stor\(missing.count == 1 ? "y is" : "ies are") not on this server: \(missing.sorted().joined(separator: ", "))."
            )
        }
    }
}
