import ChooseYourDestiny
import SQLKit

public enum StoryMigrations {
    public static let all: [Migration] = [
        Migration(version: 601, name: "stories: published stories, their pictures, libraries, reading progress") { db in
            // The story itself is one document in Trove's story.json format, replaced whole on update.
            // Stories with no owner come from the samples, the command line or GitHub.
            try await db.create(table: "stories")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("owner_profile_id", type: .text, .references("profiles", "id", onDelete: .cascade))
                .column("name", type: .text, .notNull)
                .column("story_json", type: .text, .notNull)
                .column("source", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .column("updated_at", type: .bigint, .notNull)
                .run()
            try await db.create(table: "story_resources")
                .column("story_id", type: .text, .notNull, .references("stories", "id", onDelete: .cascade))
                .column("name", type: .text, .notNull)
                .column("content_type", type: .text, .notNull)
                .column("bytes", type: .blob, .notNull)
                .primaryKey("story_id", "name")
                .run()
            try await db.create(table: "story_library")
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("story_id", type: .text, .notNull, .references("stories", "id", onDelete: .cascade))
                .column("added_at", type: .bigint, .notNull)
                .primaryKey("profile_id", "story_id")
                .run()
            try await db.create(table: "story_progress")
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("story_id", type: .text, .notNull, .references("stories", "id", onDelete: .cascade))
                .column("path", type: .text, .notNull)
                .column("endings_found", type: .text, .notNull)
                .column("updated_at", type: .bigint, .notNull)
                .primaryKey("profile_id", "story_id")
                .run()
        },
        Migration(version: 602, name: "stories: Twine stories played step by step, and each reader's place in them") { db in
            // The Twine story (lossless, as Twine 2 HTML) of a story that keeps variables; NULL for the others.
            try await db.alter(table: "stories").column("twine_html", type: .text).run()
            // A reader's place in such a story: the interpreter's reading (seed, choices taken, state) as JSON.
            try await db.alter(table: "story_progress").column("twine_reading", type: .text).run()
        },
        // What the catalog shows of each story (`StorySummary`), kept beside it so a catalog request reads these
        // columns instead of parsing every story's JSON (a catalog of 10,000 stories took 3 s).
        Migration(version: 1004, name: "stories: each story's catalog summary in columns of its own") { db in
            for (column, type) in StoryRepository.summaryColumns {
                try await db.alter(table: "stories").column(column, type: type).run()
            }
            // One story at a time: a catalog may hold thousands of stories of up to 2 MB each.
            for idRow in try await db.select().column("id").from("stories").all() {
                let id = try idRow.decode(column: "id", as: String.self)
                guard let row = try await db.select().column("story_json").from("stories").where("id", .equal, id).first() else { continue }
                let story = try StoryFile.read(try row.decode(column: "story_json", as: String.self))
                try await StoryRepository.setSummary(of: db.update("stories"), to: StorySummary(story)).where("id", .equal, id).run()
            }
        },
    ]
}
