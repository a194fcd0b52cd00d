import SQLKit

public enum PoetryMigrations {
    public static let all: [Migration] = [
        Migration(version: 401, name: "poetry: word sets, poems, backgrounds, pronunciations") { db in
            try await db.create(table: "poetry_word_sets")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("name", type: .text, .notNull)
                .column("words_json", type: .text, .notNull)
                .column("created_at", type: .bigint, .notNull)
                .column("updated_at", type: .bigint, .notNull)
                .run()
            try await db.create(index: "poetry_word_sets_profile").on("poetry_word_sets").column("profile_id").run()
            // The board is one JSON document, replaced whole on every save: two tabs can never mix their boards.
            try await db.create(table: "poetry_poems")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("title", type: .text, .notNull)
                .column("version", type: .bigint, .notNull)
                .column("board_json", type: .text, .notNull)
                .column("word_set_id", type: .text, .notNull)
                .column("public_id", type: .text, .unique)
                .column("has_background", type: .custom(SQLRaw("BOOLEAN")), .notNull, .default(false))
                .column("created_at", type: .bigint, .notNull)
                .column("updated_at", type: .bigint, .notNull)
                .run()
            try await db.create(index: "poetry_poems_profile").on("poetry_poems").column("profile_id").column("updated_at").run()
            try await db.create(table: "poetry_backgrounds")
                .column("poem_id", type: .text, .primaryKey(autoIncrement: false), .references("poetry_poems", "id", onDelete: .cascade))
                .column("content_type", type: .text, .notNull)
                .column("bytes", type: .blob, .notNull)
                .run()
            try await db.create(table: "pronunciations")
                .column("word", type: .text, .primaryKey(autoIncrement: false))
                .column("phones", type: .text, .notNull)
                .column("rhyme_key", type: .text, .notNull)
                .column("first_sound", type: .text, .notNull)
                .column("syllables", type: .bigint, .notNull)
                // wordfreq's bucket: lower is more common; NULL for words too rare to be listed.
                .column("frequency", type: .bigint)
                .run()
            try await db.create(index: "pronunciations_rhyme").on("pronunciations").column("rhyme_key").run()
            try await db.create(index: "pronunciations_first_sound").on("pronunciations").column("first_sound").run()
        },
        Migration(version: 1000, name: "poetry: boards keep snake_case keys, as the API answers them") { db in
            // A board is answered as stored (PoemRepository.findStored), so its keys follow the API's. A quoted key
            // can only be a key: words are letters, and JSON escapes any quote inside a string.
            try await db.raw(
                """
                UPDATE poetry_poems SET board_json =
                    REPLACE(REPLACE(REPLACE(board_json, '"wordSetId":', '"word_set_id":'), '"fontScale":', '"font_scale":'),
                        '"extraWords":', '"extra_words":')
                """
            ).run()
        },
    ]
}
