import ChooseYourDestiny
import DatabaseDrivers
import Foundation
import SQLKit
import Storage
import TestSupport
import Testing
import WebApp

/// The catalog lists stories from their stored summaries (issue 56's ninth finding, issue 65): what a card shows is
/// worked out when a story is saved, and a catalog request never reads a story's document.
@Suite struct StoryCatalogTests {
    static let story = Story(
        id: "lamp", name: "The Lamp", rating: "All ages", summary: "A storm.", author: "Ann", description: "Short.", language: "en",
        chapters: [
            Chapter(id: "1", name: "Start", isFirst: true, text: "Go.", choices: [Choice(chapterID: "2", text: "On")]),
            Chapter(id: "2", name: "End", isFirst: false, text: "The end.", choices: []),
            Chapter(id: "3", name: "Lost", isFirst: false, text: "Nobody comes here.", choices: []),
        ])

    @Test(arguments: DatabaseKind.allCases)
    func theCatalogReadsSummariesNotDocuments(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let stories = StoryRepository(database: database.sql)
            try await stories.save(id: "lamp", story: Self.story, owner: nil, source: "cli")
            // A document nobody could parse: the catalog does not need it.
            try await database.sql.update("stories").set("story_json", to: SQLBind("not json")).run()
            let listed = try #require(try await stories.listed().first)
            #expect(listed.summary == StorySummary(Self.story))
            #expect(listed.summary.endingCount == 1 && listed.summary.chapterCount == 3)
            #expect(try await stories.listed(ids: ["lamp", "none"]).map(\.id) == ["lamp"])
        }
    }

    /// A story saved before the summary columns were added gets its summary when the database is upgraded.
    @Test(arguments: DatabaseKind.allCases)
    func anUpgradeWorksOutTheSummariesOfStoriesAlreadyThere(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind, migrate: false) { database in
            let before = TroveApps.migrations.filter { $0.version != 1004 }
            try await Migrator(database: database.sql, migrations: before).migrate()
            try await database.sql.insert(into: "stories")
                .columns("id", "name", "story_json", "source", "created_at", "updated_at")
                .values(SQLBind("lamp"), SQLBind("The Lamp"), SQLBind(StoryFile.write(Self.story)), SQLBind("cli"), SQLBind(1), SQLBind(1))
                .run()
            try await Migrator(database: database.sql, migrations: TroveApps.migrations).migrate()
            #expect(try await StoryRepository(database: database.sql).listed().first?.summary == StorySummary(Self.story))
        }
    }
}
