import Accounts
import Edits
import Foundation
import SQLKit
import YogiYogini

/// The instructor's saved and recent venues.
public struct YogaVenueRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public struct Venue: Sendable, Equatable {
        public let id: String
        public let place: VenuePlace
        public let source: String
        public let externalID: String?
        public let favourite: Bool
        public let lastUsedAt: Date?
        public let sessionCount: Int
    }

    /// Favourites first, then the most recently used, then by name.
    public func list(profileID: String) async throws -> [Venue] {
        try await venues(profileID: profileID, id: nil).sorted { left, right in
            if left.favourite != right.favourite { return left.favourite }
            let l = left.lastUsedAt ?? .distantPast
            let r = right.lastUsedAt ?? .distantPast
            if l != r { return l > r }
            return left.place.name < right.place.name
        }
    }

    public func venue(id: String, profileID: String) async throws -> Venue? {
        try await venues(profileID: profileID, id: id).first
    }

    private func venues(profileID: String, id: String?) async throws -> [Venue] {
        var query = database.select().columns(
            "id", "name", "address", "latitude", "longitude", "source", "external_id", "favourite", "last_used_at"
        )
        .from("yoga_venues").where("profile_id", .equal, profileID)
        if let id { query = query.where("id", .equal, id) }
        let rows = try await query.all()
        let counts = try await database.select().column("venue_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("yoga_sessions").where("profile_id", .equal, profileID).where("venue_id", .isNot, SQLLiteral.null).groupBy("venue_id")
            .all()
        var byVenue: [String: Int] = [:]
        for row in counts { byVenue[try row.decode(column: "venue_id", as: String.self)] = try row.decode(column: "n", as: Int.self) }
        return try rows.map { row in
            let id = try row.decode(column: "id", as: String.self)
            return Venue(
                id: id, place: try Self.place(row, name: "name", address: "address"),
                source: try row.decode(column: "source", as: String.self),
                externalID: try row.decodeNil(column: "external_id") ? nil : row.decode(column: "external_id", as: String.self),
                favourite: try row.decode(column: "favourite", as: Bool.self),
                lastUsedAt: try row.decodeNil(column: "last_used_at")
                    ? nil : Date(millisecondsSince1970: row.decode(column: "last_used_at", as: Int64.self)),
                sessionCount: byVenue[id] ?? 0
            )
        }
    }

    /// Saves a venue, or finds the one already saved from the same provider entry (or with the same typed
    /// name and address), so checking in at a place twice keeps one venue.
    public func save(_ place: VenuePlace, source: String, externalID: String?, profileID: String, now: Date = Date()) async throws -> Venue
    {
        var existing = database.select().column("id").from("yoga_venues").where("profile_id", .equal, profileID).where(
            "source", .equal, source)
        if let externalID {
            existing = existing.where("external_id", .equal, externalID)
        } else {
            existing = existing.where("name", .equal, place.name).where("address", .equal, place.address)
        }
        if let row = try await existing.first() {
            return try await venue(id: try row.decode(column: "id", as: String.self), profileID: profileID).readBack(or: .venueNotFound)
        }
        let id = "v" + Token.make(length: 15)
        try await database.insert(into: "yoga_venues")
            .columns("id", "profile_id", "name", "address", "latitude", "longitude", "source", "external_id", "favourite", "created_at")
            .values(
                SQLBind(id), SQLBind(profileID), SQLBind(place.name), SQLBind(place.address), SQLBind(place.latitude),
                SQLBind(place.longitude),
                SQLBind(source), SQLBind(externalID), SQLBind(false), SQLBind(now.millisecondsSince1970)
            ).run()
        return try await venue(id: id, profileID: profileID).readBack(or: .venueNotFound)
    }

    /// A venue's name, address and star: as the page knew them when it was edited (an edit's base), or as stored.
    public struct Edit: Sendable, Equatable {
        public let name: String
        public let address: String
        public let favourite: Bool

        public init(name: String, address: String, favourite: Bool) {
            self.name = name
            self.address = address
            self.favourite = favourite
        }
    }

    /// Renames, readdresses or stars a venue. With `base` (the venue as the page knew it), only what the edit changed
    /// is saved over what is stored, read and written in one transaction (`edited`).
    public func update(id: String, name: String, address: String, favourite: Bool, base: Edit? = nil, profileID: String) async throws
        -> Venue
    {
        try await database.transaction { db in
            guard
                let row = try await db.select().columns("name", "address", "favourite").from("yoga_venues").where("id", .equal, id)
                    .where("profile_id", .equal, profileID).first()
            else { throw YogaError.venueNotFound }
            let current = Edit(
                name: try row.decode(column: "name", as: String.self), address: try row.decode(column: "address", as: String.self),
                favourite: try row.decode(column: "favourite", as: Bool.self))
            let base = base ?? current
            try await db.update("yoga_venues").set("name", to: SQLBind(edited(name, base: base.name, current: current.name)))
                .set("address", to: SQLBind(edited(address, base: base.address, current: current.address)))
                .set("favourite", to: SQLBind(edited(favourite, base: base.favourite, current: current.favourite)))
                .where("id", .equal, id).where("profile_id", .equal, profileID).run()
        }
        return try await venue(id: id, profileID: profileID).readBack(or: .venueNotFound)
    }

    /// Past sessions keep their copy of the venue's name and address.
    public func delete(id: String, profileID: String) async throws {
        guard try await venue(id: id, profileID: profileID) != nil else { throw YogaError.venueNotFound }
        try await database.transaction { db in
            try await db.update("yoga_sessions").set("venue_id", to: SQLLiteral.null).where("venue_id", .equal, id).where(
                "profile_id", .equal, profileID
            ).run()
            try await db.update("yoga_classes").set("venue_id", to: SQLLiteral.null).where("venue_id", .equal, id).where(
                "profile_id", .equal, profileID
            ).run()
            try await db.delete(from: "yoga_venues").where("id", .equal, id).where("profile_id", .equal, profileID).run()
        }
    }

    public func markUsed(id: String, profileID: String, at time: Date) async throws {
        try await database.update("yoga_venues").set("last_used_at", to: SQLBind(time.millisecondsSince1970))
            .where("id", .equal, id).where("profile_id", .equal, profileID).run()
    }

    static func place(_ row: any SQLRow, name: String, address: String) throws -> VenuePlace {
        VenuePlace(
            name: try row.decode(column: name, as: String.self), address: try row.decode(column: address, as: String.self),
            latitude: try row.decodeNil(column: "latitude") ? nil : row.decode(column: "latitude", as: Double.self),
            longitude: try row.decodeNil(column: "longitude") ? nil : row.decode(column: "longitude", as: Double.self)
        )
    }
}
