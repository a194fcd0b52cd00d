import SQLKit

public enum CityMigrations {
    public static let all: [Migration] = [
        Migration(version: 501, name: "cities: GeoNames cities and countries, collections, surprise history") { db in
            let double = SQLDataType.custom(SQLRaw("DOUBLE PRECISION"))
            try await db.create(table: "cities")
                .column("geonameid", type: .bigint, .primaryKey(autoIncrement: false))
                .column("name", type: .text, .notNull)
                .column("country_code", type: .text, .notNull)
                .column("admin1_code", type: .text, .notNull)
                .column("latitude", type: double, .notNull)
                .column("longitude", type: double, .notNull)
                .column("population", type: .bigint, .notNull)
                .column("timezone", type: .text, .notNull)
                // Normalized names joined by tabs, the own name first (see CityRoulette.SearchKey): the name index is
                // built from them at start without normalizing a million names again.
                .column("search_keys", type: .text, .notNull)
                // The same names as written, tab-joined in the same order: read only to show which name matched.
                .column("spellings", type: .text, .notNull)
                // Which import last wrote the row, so an import can drop the cities its data set no longer has.
                .column("import_id", type: .bigint, .notNull)
                .run()
            try await db.create(table: "city_countries")
                .column("iso", type: .text, .primaryKey(autoIncrement: false))
                .column("iso3", type: .text, .notNull)
                .column("name", type: .text, .notNull)
                .column("capital", type: .text, .notNull)
                .column("continent_code", type: .text, .notNull)
                .column("area_km2", type: double, .notNull)
                .column("population", type: .bigint, .notNull)
                .column("currency_code", type: .text, .notNull)
                .column("currency_name", type: .text, .notNull)
                .column("languages", type: .text, .notNull)
                .column("neighbours", type: .text, .notNull)
                .column("tld", type: .text, .notNull)
                .column("phone", type: .text, .notNull)
                .run()
            // One row: what was imported last and when, so servers notice a new import.
            try await db.create(table: "city_imports")
                .column("id", type: .bigint, .primaryKey(autoIncrement: false))
                .column("dataset", type: .text, .notNull)
                .column("city_count", type: .bigint, .notNull)
                .column("imported_at", type: .bigint, .notNull)
                .run()
            // No foreign key to cities: a collected city survives a re-import of a smaller data set.
            try await db.create(table: "city_collection")
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("geonameid", type: .bigint, .notNull)
                .column("favourite", type: .custom(SQLRaw("BOOLEAN")), .notNull)
                .column("position", type: .bigint, .notNull)
                .column("added_at", type: .bigint, .notNull)
                .primaryKey("profile_id", "geonameid")
                .run()
            try await db.create(index: "city_collection_geonameid").on("city_collection").column("geonameid").run()
            try await db.create(table: "city_surprise_history")
                .column("id", type: .bigint, .primaryKey)
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("searched_at", type: .bigint, .notNull)
                .column("geonameids", type: .text, .notNull)
                .run()
            try await db.create(index: "city_surprise_history_profile").on("city_surprise_history").column("profile_id").column("id").run()
        },
        Migration(version: 502, name: "cities: the offline basemap (Natural Earth land and borders)") { db in
            // One row per basemap, 'world' today: the JSON as imported (the page draws it) and its ETag.
            try await db.create(table: "city_basemaps")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("body", type: .text, .notNull)
                .column("etag", type: .text, .notNull)
                .column("imported_at", type: .bigint, .notNull)
                .run()
        },
    ]
}
