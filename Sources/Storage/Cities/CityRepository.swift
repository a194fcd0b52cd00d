import CityRoulette
import DatabaseDrivers
import Foundation
import SQLKit

/// The imported GeoNames cities and countries: written by `trove import cities`, read whole at start to
/// build the in-memory catalog.
public struct CityRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public struct ImportState: Sendable, Equatable {
        public let dataset: String
        public let cityCount: Int
        public let importedAt: Date
    }

    static let batchSize = 400
    static let importColumns = [
        "geonameid", "name", "country_code", "admin1_code", "latitude", "longitude", "population", "timezone", "search_keys", "spellings",
        "import_id",
    ]

    /// One batch of cities, inserted or updated. Its text is written once per batch size: SQLKit's builder took
    /// a fifth of an import's time writing the same 4,400 placeholders for each batch.
    static let upsertCities = PreparedQuery(isRead: false) { database, values in
        var insert = database.insert(into: "cities").columns(importColumns)
        for start in stride(from: 0, to: values.count, by: importColumns.count) {
            insert = insert.values(Array(values[start..<start + importColumns.count]))
        }
        return insert.onConflict(with: ["geonameid"]) { update in
            for column in importColumns.dropFirst() { update.set(excludedValueOf: column) }
            return update
        }.insert
    }
    public static var batchSizeForProgress: Int { batchSize }

    /// Writes the data set in one transaction: new and changed cities are upserted in batches, cities the
    /// data set no longer has are dropped unless someone collected them, and countries are replaced.
    /// Running it twice changes nothing. `progress` hears (cities written, total) after each batch.
    public func importData(
        dataset: String, cities: [GeoNamesData.ImportedCity], countries: [Country], now: Date = Date(),
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws {
        let importID = now.millisecondsSince1970
        try await database.transaction { db in
            var written = 0
            for start in stride(from: 0, to: cities.count, by: Self.batchSize) {
                let batch = cities[start..<min(start + Self.batchSize, cities.count)]
                var values: [any Encodable & Sendable] = []
                values.reserveCapacity(batch.count * Self.importColumns.count)
                for item in batch {
                    let city = item.city
                    values +=
                        [
                            city.geonameid, city.name, city.countryCode, city.admin1Code, city.latitude, city.longitude, city.population,
                            city.timezone, item.searchKeys.joined(separator: "\t"), item.spellings.joined(separator: "\t"), importID,
                        ] as [any Encodable & Sendable]
                }
                try await Self.upsertCities.run(values, on: db)
                written += batch.count
                progress(written, cities.count)
            }
            try await db.delete(from: "cities").where("import_id", .notEqual, SQLBind(importID))
                .where("geonameid", .notIn, SQLSubquery.select { $0.column("geonameid").from("city_collection") }).run()
            try await db.delete(from: "city_countries").run()
            for country in countries {
                try await db.insert(into: "city_countries")
                    .columns(
                        "iso", "iso3", "name", "capital", "continent_code", "area_km2", "population", "currency_code",
                        "currency_name", "languages", "neighbours", "tld", "phone"
                    )
                    .values(
                        SQLBind(country.iso), SQLBind(country.iso3), SQLBind(country.name), SQLBind(country.capital),
                        SQLBind(country.continentCode), SQLBind(country.areaSquareKilometres), SQLBind(country.population),
                        SQLBind(country.currencyCode), SQLBind(country.currencyName), SQLBind(country.languages),
                        SQLBind(country.neighbours.joined(separator: ",")), SQLBind(country.topLevelDomain), SQLBind(country.phone)
                    )
                    .run()
            }
            try await db.delete(from: "city_imports").run()
            try await db.insert(into: "city_imports").columns("id", "dataset", "city_count", "imported_at")
                .values(SQLBind(1), SQLBind(dataset), SQLBind(cities.count), SQLBind(importID)).run()
        }
    }

    public func importState() async throws -> ImportState? {
        guard let row = try await database.select().columns("dataset", "city_count", "imported_at").from("city_imports").first() else {
            return nil
        }
        return ImportState(
            dataset: try row.decode(column: "dataset", as: String.self),
            cityCount: try row.decode(column: "city_count", as: Int.self),
            importedAt: Date(millisecondsSince1970: try row.decode(column: "imported_at", as: Int64.self))
        )
    }

    /// Every city with its search keys and how its alternate names are written (`SearchKey.spellingRules`; the
    /// names themselves stay in the database), in id order, read in pages so no single result is huge.
    public func allCities(pageSize: Int = 20_000) async throws -> (
        cities: [City], searchKeys: [[String]], spellings: [SearchKey.Spelling]
    ) {
        var cities: [City] = []
        var keys: [[String]] = []
        var spellings: [SearchKey.Spelling] = []
        // A few hundred time zones for 235,000 cities: one string each instead of one per city (most are too long
        // to be stored inline, so each copy was an allocation kept as long as the catalog).
        var timezones: [String: String] = [:]
        var after = 0
        while true {
            let rows = try await database.select()
                .columns(
                    "geonameid", "name", "country_code", "admin1_code", "latitude", "longitude", "population", "timezone", "search_keys",
                    "spellings"
                )
                .from("cities").where("geonameid", .greaterThan, SQLBind(after)).orderBy("geonameid").limit(pageSize).all()
            for row in rows {
                let timezone = try row.decode(column: "timezone", as: String.self)
                let sharedTimezone = timezones[timezone] ?? timezone
                timezones[timezone] = sharedTimezone
                cities.append(
                    City(
                        geonameid: try row.decode(column: "geonameid", as: Int.self),
                        name: try row.decode(column: "name", as: String.self),
                        countryCode: try row.decode(column: "country_code", as: String.self),
                        admin1Code: try row.decode(column: "admin1_code", as: String.self),
                        latitude: try row.decode(column: "latitude", as: Double.self),
                        longitude: try row.decode(column: "longitude", as: Double.self),
                        population: try row.decode(column: "population", as: Int.self),
                        timezone: sharedTimezone
                    ))
                let joined = try row.decode(column: "search_keys", as: String.self)
                let cityKeys = joined.isEmpty ? [] : joined.split(separator: "\t").map(String.init)
                keys.append(cityKeys)
                if cityKeys.count > 1 {
                    spellings += SearchKey.spellingRules(
                        keys: cityKeys, joinedSpellings: try row.decode(column: "spellings", as: String.self))
                }
            }
            guard rows.count == pageSize, let last = cities.last else { break }
            after = last.geonameid
        }
        return (cities, keys, spellings)
    }

    /// Values: the cities' ids.
    static let spellingsQuery = PreparedQuery(isRead: true) { database, values in
        database.select().columns("geonameid", "spellings").from("cities").where("geonameid", .in, SQLGroupExpression(values)).select
    }

    /// For a few cities, one of their names as written each: `positions` maps a city's id to the name's
    /// position in its list (`CityCatalog.SearchResult.matchedNamePosition`).
    public func spellings(at positions: [Int: Int]) async throws -> [Int: String] {
        guard !positions.isEmpty else { return [:] }
        let rows = try await Self.spellingsQuery.all(Array(positions.keys), on: database)
        var result: [Int: String] = [:]
        for row in rows {
            let id = try row.decode(column: "geonameid", as: Int.self)
            if let position = positions[id],
                let spelling = SearchKey.spelling(at: position, joinedSpellings: try row.decode(column: "spellings", as: String.self))
            {
                result[id] = spelling
            }
        }
        return result
    }

    public func allCountries() async throws -> [Country] {
        try await database.select()
            .columns(
                "iso", "iso3", "name", "capital", "continent_code", "area_km2", "population", "currency_code", "currency_name",
                "languages", "neighbours", "tld", "phone"
            )
            .from("city_countries").orderBy("iso").all().map { row in
                Country(
                    iso: try row.decode(column: "iso", as: String.self), iso3: try row.decode(column: "iso3", as: String.self),
                    name: try row.decode(column: "name", as: String.self), capital: try row.decode(column: "capital", as: String.self),
                    continentCode: try row.decode(column: "continent_code", as: String.self),
                    areaSquareKilometres: try row.decode(column: "area_km2", as: Double.self),
                    population: try row.decode(column: "population", as: Int.self),
                    currencyCode: try row.decode(column: "currency_code", as: String.self),
                    currencyName: try row.decode(column: "currency_name", as: String.self),
                    languages: try row.decode(column: "languages", as: String.self),
                    neighbours: try row.decode(column: "neighbours", as: String.self).split(separator: ",").map(String.init),
                    topLevelDomain: try row.decode(column: "tld", as: String.self), phone: try row.decode(column: "phone", as: String.self)
                )
            }
    }
}
