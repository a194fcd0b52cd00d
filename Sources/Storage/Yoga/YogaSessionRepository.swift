import Accounts
import Foundation
import SQLKit
import YogiYogini

/// Past classes: list, detail, corrections, delete, and the facts statistics are computed from.
public struct YogaSessionRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public struct Session: Sendable, Equatable {
        public let id: String
        public let venueID: String?
        public let place: VenuePlace
        public let startedAt: Date
        public let endedAt: Date
        public let attendees: [Attendee]
        public let temperatureCelsius: Double?
        public let notes: String

        public var duration: TimeInterval { endedAt.timeIntervalSince(startedAt) }
    }

    /// Newest first.
    public func list(profileID: String) async throws -> [Session] {
        try await sessions(profileID: profileID, id: nil)
    }

    public func session(id: String, profileID: String) async throws -> Session? {
        try await sessions(profileID: profileID, id: id).first
    }

    private func sessions(profileID: String, id: String?) async throws -> [Session] {
        var query = database.select()
            .columns(
                "id", "venue_id", "venue_name", "venue_address", "latitude", "longitude", "started_at", "ended_at", "temperature_c", "notes"
            )
            .from("yoga_sessions").where("profile_id", .equal, profileID)
        if let id { query = query.where("id", .equal, id) }
        let rows = try await query.orderBy(SQLColumn("started_at"), SQLDirection.descending).all()
        var attendance: [String: [Attendee]] = [:]
        var attendanceQuery = database.select().columns(
            SQLColumn("session_id", table: "a"), SQLColumn("student_id", table: "a"), SQLColumn("student_name", table: "a")
        )
        .from(SQLAlias(SQLIdentifier("yoga_attendance"), as: SQLIdentifier("a")))
        .join(
            SQLAlias(SQLIdentifier("yoga_sessions"), as: SQLIdentifier("x")), on: SQLColumn("session_id", table: "a"), .equal,
            SQLColumn("id", table: "x")
        )
        .where(SQLColumn("profile_id", table: "x"), .equal, SQLBind(profileID))
        if let id { attendanceQuery = attendanceQuery.where(SQLColumn("id", table: "x"), .equal, SQLBind(id)) }
        for row in try await attendanceQuery.orderBy(SQLColumn("id", table: "a")).all() {
            attendance[try row.decode(column: "session_id", as: String.self), default: []].append(
                Attendee(
                    studentID: try row.decodeNil(column: "student_id") ? nil : row.decode(column: "student_id", as: String.self),
                    name: try row.decode(column: "student_name", as: String.self)
                ))
        }
        return try rows.map { row in
            let id = try row.decode(column: "id", as: String.self)
            return Session(
                id: id, venueID: try row.decodeNil(column: "venue_id") ? nil : row.decode(column: "venue_id", as: String.self),
                place: try YogaVenueRepository.place(row, name: "venue_name", address: "venue_address"),
                startedAt: Date(millisecondsSince1970: try row.decode(column: "started_at", as: Int64.self)),
                endedAt: Date(millisecondsSince1970: try row.decode(column: "ended_at", as: Int64.self)),
                attendees: attendance[id] ?? [],
                temperatureCelsius: try row.decodeNil(column: "temperature_c") ? nil : row.decode(column: "temperature_c", as: Double.self),
                notes: try row.decode(column: "notes", as: String.self)
            )
        }
    }

    /// Corrects times, notes, temperature and the roster students who attended; former students' rows stay. A
    /// correction made on `base` (the session as its form was opened) keeps what another device corrected meanwhile
    /// in what it left alone (`SessionCorrection.edited`). `departed`: the names of attendees deleted from the roster
    /// meanwhile (`YogaValidation.departed`), kept with no id unless the session already keeps them so.
    public func correct(
        id: String, _ edit: SessionCorrection, base: SessionCorrection? = nil, departed: [String] = [], profileID: String
    ) async throws -> Session {
        try await database.transaction { db in
            guard
                let row = try await db.select().columns("started_at", "ended_at", "notes", "temperature_c").from("yoga_sessions")
                    .where("id", .equal, id).where("profile_id", .equal, profileID).first()
            else { throw YogaError.sessionNotFound }
            var saved = edit
            if let base {
                let attended = try await db.select().column("student_id").from("yoga_attendance").where("session_id", .equal, id)
                    .where("student_id", .isNot, SQLLiteral.null).orderBy("id").all()
                let current = SessionCorrection(
                    startedAt: Date(millisecondsSince1970: try row.decode(column: "started_at", as: Int64.self)),
                    endedAt: Date(millisecondsSince1970: try row.decode(column: "ended_at", as: Int64.self)),
                    attendeeIDs: try attended.map { try $0.decode(column: "student_id", as: String.self) },
                    notes: try row.decode(column: "notes", as: String.self),
                    temperatureCelsius: try row.decodeNil(column: "temperature_c")
                        ? nil : row.decode(column: "temperature_c", as: Double.self))
                saved = SessionCorrection.edited(edit, base: base, current: current)
            }
            try await db.update("yoga_sessions").set("started_at", to: SQLBind(saved.startedAt.millisecondsSince1970))
                .set("ended_at", to: SQLBind(saved.endedAt.millisecondsSince1970)).set("notes", to: SQLBind(saved.notes))
                .set("temperature_c", to: SQLBind(saved.temperatureCelsius)).where("id", .equal, id).where("profile_id", .equal, profileID)
                .run()
            try await db.delete(from: "yoga_attendance").where("session_id", .equal, id).where("student_id", .isNot, SQLLiteral.null).run()
            let kept = try await db.select().column("student_name").from("yoga_attendance").where("session_id", .equal, id).all()
                .map { try $0.decode(column: "student_name", as: String.self) }
            let roster = try await Self.attendees(YogaClassRepository.unique(saved.attendeeIDs), profileID: profileID, on: db)
            try await Self.insertAttendance(sessionID: id, attendees: roster + Self.departed(departed, besides: kept), on: db)
        }
        return try await session(id: id, profileID: profileID).readBack(or: .sessionNotFound)
    }

    /// Records a whole class at once (one held where the instructor had no connection): its session with the
    /// roster students who attended and the `departed` (deleted from the roster meanwhile, by name), and the venue
    /// marked used.
    public func record(
        venueID: String?, place: VenuePlace, startedAt: Date, endedAt: Date, attendeeIDs: [String], departed: [String] = [], notes: String,
        temperature: Double?, profileID: String
    ) async throws -> Session {
        let id = "c" + Token.make(length: 15)
        try await database.transaction { db in
            try await Self.insert(
                id: id, venueID: venueID, place: place, startedAt: startedAt, endedAt: endedAt, temperature: temperature, notes: notes,
                attendees: try await Self.attendees(YogaClassRepository.unique(attendeeIDs), profileID: profileID, on: db)
                    + Self.departed(departed, besides: []),
                profileID: profileID, on: db
            )
            if let venueID {
                try await db.update("yoga_venues").set("last_used_at", to: SQLBind(startedAt.millisecondsSince1970))
                    .where("id", .equal, venueID).where("profile_id", .equal, profileID).run()
            }
        }
        return try await session(id: id, profileID: profileID).readBack(or: .sessionNotFound)
    }

    public func delete(id: String, profileID: String) async throws {
        guard try await session(id: id, profileID: profileID) != nil else { throw YogaError.sessionNotFound }
        try await database.delete(from: "yoga_sessions").where("id", .equal, id).where("profile_id", .equal, profileID).run()
    }

    static func insert(
        id: String, venueID: String?, place: VenuePlace, startedAt: Date, endedAt: Date, temperature: Double?, notes: String,
        attendees: [Attendee], profileID: String, on db: any SQLDatabase
    ) async throws {
        try await db.insert(into: "yoga_sessions")
            .columns(
                "id", "profile_id", "venue_id", "venue_name", "venue_address", "latitude", "longitude", "started_at", "ended_at",
                "temperature_c", "notes"
            )
            .values(
                SQLBind(id), SQLBind(profileID), SQLBind(venueID), SQLBind(place.name), SQLBind(place.address), SQLBind(place.latitude),
                SQLBind(place.longitude), SQLBind(startedAt.millisecondsSince1970), SQLBind(endedAt.millisecondsSince1970),
                SQLBind(temperature), SQLBind(notes)
            ).run()
        try await insertAttendance(sessionID: id, attendees: attendees, on: db)
    }

    static func insertAttendance(sessionID: String, attendees: [Attendee], on db: any SQLDatabase) async throws {
        guard !attendees.isEmpty else { return }
        var insert = db.insert(into: "yoga_attendance").columns("session_id", "student_id", "student_name")
        for attendee in attendees {
            insert = insert.values(SQLBind(sessionID), SQLBind(attendee.studentID), SQLBind(attendee.name))
        }
        try await insert.run()
    }

    /// Attendees no longer on the roster, by name and with no id: one row for each name not already kept.
    static func departed(_ names: [String], besides kept: [String]) -> [Attendee] {
        var left = kept
        return names.compactMap { name in
            if let index = left.firstIndex(of: name) {
                left.remove(at: index)
                return nil
            }
            return Attendee(studentID: nil, name: name)
        }
    }

    /// Roster students by id, with their current names, in the order given.
    static func attendees(_ ids: [String], profileID: String, on db: any SQLDatabase) async throws -> [Attendee] {
        guard !ids.isEmpty else { return [] }
        var names: [String: String] = [:]
        for row in try await db.select().columns("id", "name").from("yoga_students").where("profile_id", .equal, profileID)
            .where("id", .in, SQLBind.group(ids)).all()
        {
            names[try row.decode(column: "id", as: String.self)] = try row.decode(column: "name", as: String.self)
        }
        return ids.compactMap { id in names[id].map { Attendee(studentID: id, name: $0) } }
    }
}
