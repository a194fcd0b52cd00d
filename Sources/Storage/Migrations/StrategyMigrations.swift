import SQLKit

public enum StrategyMigrations {
    public static let all: [Migration] = [
        Migration(version: 201, name: "strategies: sections, cards, favourites, draws, shuffle") { db in
            try await db.create(table: "strategy_sections")
                .column("edition", type: .bigint, .primaryKey(autoIncrement: false))
                .column("name", type: .text, .notNull, .unique)
                .run()
            // Published cards (owner NULL) and each profile's own cards (edition 0) share one table, so
            // favourites, history and permalinks treat them alike.
            try await db.create(table: "strategy_cards")
                .column("id", type: .bigint, .primaryKey)
                .column("edition", type: .bigint, .notNull)
                .column("card_number", type: .bigint, .notNull)
                .column("text", type: .text, .notNull)
                .column("owner_profile_id", type: .text, .references("profiles", "id", onDelete: .cascade))
                .column("retired", type: .custom(SQLRaw("BOOLEAN")), .notNull, .default(false))
                .column("created_at", type: .bigint, .notNull)
                .column("updated_at", type: .bigint, .notNull)
                .run()
            try await db.create(index: "strategy_cards_edition").on("strategy_cards").column("edition").column("card_number").run()
            try await db.create(index: "strategy_cards_owner").on("strategy_cards").column("owner_profile_id").run()
            try await db.create(table: "strategy_favourites")
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("card_id", type: .bigint, .notNull, .references("strategy_cards", "id", onDelete: .cascade))
                .column("created_at", type: .bigint, .notNull)
                .primaryKey("profile_id", "card_id")
                .run()
            try await db.create(index: "strategy_favourites_card").on("strategy_favourites").column("card_id").run()
            try await db.create(table: "strategy_draws")
                .column("id", type: .bigint, .primaryKey)
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("card_id", type: .bigint, .notNull, .references("strategy_cards", "id", onDelete: .cascade))
                .column("drawn_at", type: .bigint, .notNull)
                .column("note", type: .text)
                .run()
            try await db.create(index: "strategy_draws_profile").on("strategy_draws").column("profile_id").column("drawn_at").run()
            try await db.create(table: "strategy_shuffle")
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("card_id", type: .bigint, .notNull, .references("strategy_cards", "id", onDelete: .cascade))
                .primaryKey("profile_id", "card_id")
                .run()
        },
        Migration(version: 1001, name: "strategies: the database keeps each profile's latest 50 draws") { db in
            // Every guest's draw is recorded, so this is the deck's busiest write: one INSERT whose trigger trims
            // the history, instead of an INSERT and a DELETE sent one after the other.
            let trim = """
                DELETE FROM strategy_draws WHERE profile_id = NEW.profile_id AND id NOT IN (
                    SELECT id FROM strategy_draws WHERE profile_id = NEW.profile_id
                    ORDER BY drawn_at DESC, id DESC LIMIT \(StrategyProfileRepository.historyLength));
                """
            if db.dialect.name == "sqlite" {
                try await db.raw(
                    SQLQueryString("CREATE TRIGGER strategy_draws_trim AFTER INSERT ON strategy_draws BEGIN \(unsafeRaw: trim) END")
                ).run()
            } else {
                try await db.raw(
                    SQLQueryString(
                        """
                        CREATE FUNCTION strategy_draws_trim() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN \(unsafeRaw: trim) RETURN NULL; END $$
                        """)
                ).run()
                try await db.raw(
                    """
                    CREATE TRIGGER strategy_draws_trim AFTER INSERT ON strategy_draws
                    FOR EACH ROW EXECUTE FUNCTION strategy_draws_trim()
                    """
                ).run()
            }
        },
        Migration(version: 1002, name: "strategies: the draw history's trim deletes below the 50th newest draw") { db in
            // 1001's `NOT IN` built the 50 kept ids into a temporary table and probed it for each of the profile's
            // rows; this reads the 50th newest row's key from the index and deletes the range below it (no row when
            // the profile has fewer): a third of the trim's time, measured on SQLite.
            let trim = """
                DELETE FROM strategy_draws WHERE profile_id = NEW.profile_id AND (drawn_at, id) < (
                    SELECT drawn_at, id FROM strategy_draws WHERE profile_id = NEW.profile_id
                    ORDER BY drawn_at DESC, id DESC LIMIT 1 OFFSET \(StrategyProfileRepository.historyLength - 1));
                """
            if db.dialect.name == "sqlite" {
                try await db.raw("DROP TRIGGER strategy_draws_trim").run()
                try await db.raw(
                    SQLQueryString("CREATE TRIGGER strategy_draws_trim AFTER INSERT ON strategy_draws BEGIN \(unsafeRaw: trim) END")
                ).run()
            } else {
                try await db.raw(
                    SQLQueryString(
                        """
                        CREATE OR REPLACE FUNCTION strategy_draws_trim() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN \(unsafeRaw: trim) RETURN NULL; END $$
                        """)
                ).run()
            }
        },
    ]
}
