import Accounts
import DatabaseDrivers
import Edits
import Foundation
import SQLKit
import YogiYogini

/// The class in session: one per profile, stored from check-in to "End class".
public struct YogaClassRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public struct RunningClass: Sendable, Equatable {
        public let venueID: String?
        public let place: VenuePlace
        public let startedAt: Date
        public let attendees: [Attendee]
        public let temperatureCelsius: Double?
        public let notes: String
    }

    public func current(profileID: String) async throws -> RunningClass? {
        try await Self.current(profileID: profileID, on: database)
    }

    /// Checks in; throws `classInSession` when a class is already running.
    public func start(
        venueID: String?, place: VenuePlace, attendeeIDs: [String], notes: String, temperature: Double? = nil, profileID: String,
        at time: Date
    ) async throws -> RunningClass {
        try await database.transaction { db in
            if try await Self.current(profileID: profileID, on: db) != nil { throw YogaError.classInSession }
            try await db.insert(into: "yoga_classes")
                .columns(
                    "profile_id", "venue_id", "venue_name", "venue_address", "latitude", "longitude", "started_at", "notes", "attendee_ids",
                    "temperature_c"
                )
                .values(
                    SQLBind(profileID), SQLBind(venueID), SQLBind(place.name), SQLBind(place.address), SQLBind(place.latitude),
                    SQLBind(place.longitude), SQLBind(time.millisecondsSince1970), SQLBind(notes),
                    SQLBind(Self.unique(attendeeIDs).joined(separator: ",")), SQLBind(temperature)
                )
                .run()
            return try await Self.current(profileID: profileID, on: db)!
        }
    }

    /// Adds and removes attendees and replaces the notes when given; notes written over `was` (as the writing device
    /// last saw them) keep what another device wrote meanwhile (`editedText`). An added id that is not one of the
    /// profile's students is refused (`notOnRoster`), and nothing changes.
    public func change(add: [String], remove: [String], notes: String?, over was: String? = nil, profileID: String) async throws
        -> RunningClass
    {
        // Four statements in the writer's turn (a tap of a live class is the app's busiest write): the class, the
        // names of its attendees and of those added (which is also the roster check), the update, and the answer
        // made from what was read rather than read again.
        try await database.transaction { db in
            guard let row = try await Self.classQuery.first([profileID], on: db) else { throw YogaError.noClass }
            let everyone = Self.unique(Self.ids(try row.decode(column: "attendee_ids", as: String.self)) + add)
            let names = try await Self.names(everyone, profileID: profileID, on: db)
            let unknown = add.filter { names[$0] == nil }
            guard unknown.isEmpty else { throw YogaError.notOnRoster(unknown) }
            let removing = Set(remove)
            let ids = everyone.filter { !removing.contains($0) }
            let joined = ids.joined(separator: ",")
            var notes = notes
            if let sent = notes, let was {
                notes = editedText(sent, base: was, current: try row.decode(column: "notes", as: String.self), joinedBy: "\n")
            }
            try await Self.changeQuery.run(notes.map { [profileID, joined, $0] } ?? [profileID, joined], on: db)
            return try Self.runningClass(row, ids: ids, names: names, notes: notes)
        }
    }

    public func setTemperature(_ celsius: Double?, profileID: String) async throws {
        try await database.update("yoga_classes").set("temperature_c", to: SQLBind(celsius)).where("profile_id", .equal, profileID).run()
    }

    /// Ends the class: saved as a session (returning its id) or discarded (nil).
    public func end(save: Bool, profileID: String, at time: Date) async throws -> String? {
        try await database.transaction { db in
            guard let running = try await Self.current(profileID: profileID, on: db) else { throw YogaError.noClass }
            try await db.delete(from: "yoga_classes").where("profile_id", .equal, profileID).run()
            guard save else { return nil }
            // A class ended within the same millisecond still lasts a little.
            let end = max(time, running.startedAt.addingTimeInterval(0.001))
            let id = "c" + Token.make(length: 15)
            try await YogaSessionRepository.insert(
                id: id, venueID: running.venueID, place: running.place, startedAt: running.startedAt,
                endedAt: min(end, running.startedAt.addingTimeInterval(YogaValidation.maximumDuration)),
                temperature: running.temperatureCelsius, notes: running.notes, attendees: running.attendees, profileID: profileID, on: db
            )
            if let venueID = running.venueID {
                try await db.update("yoga_venues").set("last_used_at", to: SQLBind(running.startedAt.millisecondsSince1970))
                    .where("id", .equal, venueID).where("profile_id", .equal, profileID).run()
            }
            return id
        }
    }

    // The class is read and changed on every tap of a live class: these statements' texts are written once (see
    // `PreparedQuery`).

    /// Values: the profile, the attendees' ids joined, and the notes when they change.
    static let changeQuery = PreparedQuery(isRead: false) { database, values in
        var update = database.update("yoga_classes").set("attendee_ids", to: values[1])
        if values.count > 2 { update = update.set("notes", to: values[2]) }
        return update.where("profile_id", .equal, values[0]).update
    }

    static let classQuery = PreparedQuery(isRead: true) { database, values in
        database.select()
            .columns(
                "venue_id", "venue_name", "venue_address", "latitude", "longitude", "started_at", "temperature_c", "notes", "attendee_ids"
            )
            .from("yoga_classes").where("profile_id", .equal, values[0]).select
    }

    /// Values: the profile, then the students' ids.
    static let studentNamesQuery = PreparedQuery(isRead: true) { database, values in
        database.select().columns("id", "name").from("yoga_students").where("profile_id", .equal, values[0])
            .where("id", .in, SQLGroupExpression(Array(values.dropFirst()))).select
    }

    static func current(profileID: String, on db: any SQLDatabase) async throws -> RunningClass? {
        guard let row = try await classQuery.first([profileID], on: db) else { return nil }
        let ids = ids(try row.decode(column: "attendee_ids", as: String.self))
        return try runningClass(row, ids: ids, names: try await names(ids, profileID: profileID, on: db))
    }

    /// The names of those of `ids` who are the profile's students.
    static func names(_ ids: [String], profileID: String, on db: any SQLDatabase) async throws -> [String: String] {
        var names: [String: String] = [:]
        guard !ids.isEmpty else { return names }
        for student in try await studentNamesQuery.all([profileID] + ids, on: db) {
            names[try student.decode(column: "id", as: String.self)] = try student.decode(column: "name", as: String.self)
        }
        return names
    }

    /// A class row (`classQuery`'s) with these attendees, in this order; an id no longer on the roster is left out.
    static func runningClass(_ row: any SQLRow, ids: [String], names: [String: String], notes: String? = nil) throws -> RunningClass {
        RunningClass(
            venueID: try row.decodeNil(column: "venue_id") ? nil : row.decode(column: "venue_id", as: String.self),
            place: try YogaVenueRepository.place(row, name: "venue_name", address: "venue_address"),
            startedAt: Date(millisecondsSince1970: try row.decode(column: "started_at", as: Int64.self)),
            attendees: ids.compactMap { id in names[id].map { Attendee(studentID: id, name: $0) } },
            temperatureCelsius: try row.decodeNil(column: "temperature_c") ? nil : row.decode(column: "temperature_c", as: Double.self),
            notes: try notes ?? row.decode(column: "notes", as: String.self)
        )
    }

    /// The ids in `attendee_ids`, split at its commas byte by byte: split by Character it was 2% of a yoga change.
    static func ids(_ text: String) -> [String] {
        text.utf8.split(separator: UInt8(ascii: ",")).map { String(Substring($0)) }
    }

    static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}
