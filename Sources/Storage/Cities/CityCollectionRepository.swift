import CityRoulette
import Foundation
import SQLKit

/// Each profile's collected cities, in "my order". Import and save read the collection and write the
/// result of `CityCollection`'s rules in one transaction.
public struct CityCollectionRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public struct Entry: Sendable, Equatable {
        public let geonameid: Int
        public let favourite: Bool
        public let position: Int
        public let addedAt: Date

        var collected: CollectedCity { CollectedCity(geonameid: geonameid, favourite: favourite) }
    }

    public func list(profileID: String) async throws -> [Entry] {
        try await Self.list(profileID: profileID, on: database)
    }

    public func count(profileID: String) async throws -> Int {
        let row = try await database.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("city_collection").where("profile_id", .equal, profileID).first()
        return try row?.decode(column: "n", as: Int.self) ?? 0
    }

    public func entry(geonameid: Int, profileID: String) async throws -> Entry? {
        try await Self.list(profileID: profileID, on: database, geonameid: geonameid).first
    }

    /// Adds the cities with their favourite state, replacing those already collected; returns the new size.
    public func importCities(_ incoming: [CollectedCity], profileID: String, now: Date = Date()) async throws -> Int {
        try await database.transaction { db in
            let existing = try await Self.list(profileID: profileID, on: db)
            let result = try CityCollection.importing(incoming, into: existing.map(\.collected))
            try await Self.write(result, previous: existing, profileID: profileID, now: now, on: db)
            return result.count
        }
    }

    /// Makes the collection exactly `shown`, in that order; or, given the `base` the scene was opened on, keeps what
    /// changed elsewhere since (`CityCollection.saving(_:base:existing:)`).
    public func save(_ shown: [CollectedCity], base: [CollectedCity]? = nil, profileID: String, now: Date = Date()) async throws
        -> [Entry]
    {
        try await database.transaction { db in
            let existing = try await Self.list(profileID: profileID, on: db)
            let result =
                try base.map { try CityCollection.saving(shown, base: $0, existing: existing.map(\.collected)) }
                ?? CityCollection.saving(shown)
            let kept = Set(result.map(\.geonameid))
            let gone = existing.map(\.geonameid).filter { !kept.contains($0) }
            for batch in stride(from: 0, to: gone.count, by: 500).map({ gone[$0..<min($0 + 500, gone.count)] }) {
                try await db.delete(from: "city_collection").where("profile_id", .equal, profileID)
                    .where("geonameid", .in, SQLBind.group(Array(batch))).run()
            }
            try await Self.write(result, previous: existing, profileID: profileID, now: now, on: db)
            return try await Self.list(profileID: profileID, on: db)
        }
    }

    /// Sets one collected city's star; nil when the city is not in the collection.
    public func setFavourite(_ favourite: Bool, geonameid: Int, profileID: String) async throws -> Entry? {
        try await database.update("city_collection").set("favourite", to: SQLBind(favourite))
            .where("profile_id", .equal, profileID).where("geonameid", .equal, SQLBind(geonameid)).run()
        return try await Self.list(profileID: profileID, on: database, geonameid: geonameid).first
    }

    /// Writes `result` as the whole collection, touching only rows whose star or place changed.
    private static func write(_ result: [CollectedCity], previous: [Entry], profileID: String, now: Date, on db: any SQLDatabase)
        async throws
    {
        let before = Dictionary(previous.map { ($0.geonameid, $0) }, uniquingKeysWith: { first, _ in first })
        var fresh: [(CollectedCity, Int)] = []
        for (position, city) in result.enumerated() {
            if let old = before[city.geonameid] {
                guard old.favourite != city.favourite || old.position != position else { continue }
                try await db.update("city_collection").set("favourite", to: SQLBind(city.favourite)).set("position", to: SQLBind(position))
                    .where("profile_id", .equal, profileID).where("geonameid", .equal, SQLBind(city.geonameid)).run()
            } else {
                fresh.append((city, position))
            }
        }
        for start in stride(from: 0, to: fresh.count, by: 500) {
            var insert = db.insert(into: "city_collection").columns("profile_id", "geonameid", "favourite", "position", "added_at")
            for (city, position) in fresh[start..<min(start + 500, fresh.count)] {
                insert = insert.values(
                    SQLBind(profileID), SQLBind(city.geonameid), SQLBind(city.favourite), SQLBind(position),
                    SQLBind(now.millisecondsSince1970))
            }
            try await insert.run()
        }
    }

    private static func list(profileID: String, on db: any SQLDatabase, geonameid: Int? = nil) async throws -> [Entry] {
        var query = db.select().columns("geonameid", "favourite", "position", "added_at").from("city_collection")
            .where("profile_id", .equal, profileID)
        if let geonameid { query = query.where("geonameid", .equal, SQLBind(geonameid)) }
        return try await query.orderBy("position").orderBy("geonameid").all().map { row in
            Entry(
                geonameid: try row.decode(column: "geonameid", as: Int.self),
                favourite: try row.decode(column: "favourite", as: Bool.self),
                position: try row.decode(column: "position", as: Int.self),
                addedAt: Date(millisecondsSince1970: try row.decode(column: "added_at", as: Int64.self))
            )
        }
    }
}
