import Accounts
import DatabaseDrivers
import Foundation
import SQLKit
import YogiYogini

/// The instructor's students, student types and settings.
public struct YogaRosterRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// A student with what the sessions say about them.
    public struct StudentRecord: Sendable, Equatable {
        public let student: Student
        public let typeName: String?
        public let sessionsAttended: Int
        public let lastSeen: Date?
    }

    static let studentColumns = ["id", "name", "joined_on", "active", "type_id", "notes"]

    public func students(profileID: String) async throws -> [StudentRecord] {
        try await records(profileID: profileID, id: nil)
    }

    public func student(id: String, profileID: String) async throws -> StudentRecord? {
        try await records(profileID: profileID, id: id).first
    }

    private func records(profileID: String, id: String?) async throws -> [StudentRecord] {
        let rows =
            if let id { try await Self.studentQuery.all([profileID, id], on: database) } else {
                try await Self.studentsQuery.all([profileID], on: database)
            }
        // One student's own attendance, through the index on student_id; the roster's, one GROUP BY over the profile's.
        let counts = try await attendance(profileID: profileID, studentID: id)
        return try rows.map { row in
            let student = try Self.student(row)
            let seen = counts[student.id]
            return StudentRecord(
                student: student, typeName: try row.decode(column: "type_name", as: String?.self),
                sessionsAttended: seen?.count ?? 0, lastSeen: seen?.last)
        }
    }

    /// The roster is read each time YogiYogini opens: its text is written once (`PreparedQuery`), and it runs on the
    /// readers on NIO's thread pool, since a roster can be long. Values: the profile (and the student, for one).
    static let studentsQuery = PreparedQuery(isRead: true, isShort: false) { database, values in
        studentsSelect(database, profileID: values[0]).select
    }

    static let studentQuery = PreparedQuery(isRead: true) { database, values in
        studentsSelect(database, profileID: values[0]).where(SQLColumn("id", table: "s"), .equal, values[1]).select
    }

    private static func studentsSelect(_ database: any SQLDatabase, profileID: SQLBind) -> SQLSelectBuilder {
        database.select().columns(studentColumns.map { SQLColumn($0, table: "s") })
            .column(SQLColumn("name", table: "t"), as: "type_name")
            .from(SQLAlias(SQLIdentifier("yoga_students"), as: SQLIdentifier("s")))
            .join(
                SQLAlias(SQLIdentifier("yoga_student_types"), as: SQLIdentifier("t")), method: SQLJoinMethod.left,
                on: SQLColumn("type_id", table: "s"), .equal, SQLColumn("id", table: "t")
            )
            .where(SQLColumn("profile_id", table: "s"), .equal, profileID)
    }

    /// How many sessions each student attended, and when last.
    private func attendance(profileID: String, studentID: String?) async throws -> [String: (count: Int, last: Date)] {
        var result: [String: (count: Int, last: Date)] = [:]
        let rows =
            if let studentID { try await Self.studentAttendanceQuery.all([profileID, studentID], on: database) } else {
                try await Self.attendanceQuery.all([profileID], on: database)
            }
        for row in rows {
            result[try row.decode(column: "student_id", as: String.self)] =
                (try row.decode(column: "n", as: Int.self), Date(millisecondsSince1970: try row.decode(column: "last", as: Int64.self)))
        }
        return result
    }

    /// Counts over all of a profile's sessions: not short.
    static let attendanceQuery = PreparedQuery(isRead: true, isShort: false) { database, values in
        attendanceSelect(database, profileID: values[0]).select
    }

    /// One student's count (values: the profile, the student): as many rows as they attended.
    static let studentAttendanceQuery = PreparedQuery(isRead: true) { database, values in
        attendanceSelect(database, profileID: values[0]).where(SQLColumn("student_id", table: "a"), .equal, values[1]).select
    }

    private static func attendanceSelect(_ database: any SQLDatabase, profileID: SQLBind) -> SQLSelectBuilder {
        database.select()
            .column(SQLColumn("student_id", table: "a"))
            .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .column(SQLFunction("MAX", args: SQLColumn("started_at", table: "x")), as: "last")
            .from(SQLAlias(SQLIdentifier("yoga_attendance"), as: SQLIdentifier("a")))
            .join(
                SQLAlias(SQLIdentifier("yoga_sessions"), as: SQLIdentifier("x")), on: SQLColumn("session_id", table: "a"), .equal,
                SQLColumn("id", table: "x")
            )
            .where(SQLColumn("profile_id", table: "x"), .equal, profileID)
            .where(SQLColumn("student_id", table: "a"), .isNot, SQLLiteral.null)
            .groupBy(SQLColumn("student_id", table: "a"))
    }

    public func createStudent(_ student: Student, profileID: String, now: Date = Date()) async throws -> StudentRecord {
        try await requireType(student.typeID, profileID: profileID)
        let id = "s" + Token.make(length: 15)
        try await database.insert(into: "yoga_students").columns(Self.studentColumns + ["profile_id", "created_at"])
            .values(
                SQLBind(id), SQLBind(student.name), SQLBind(student.joinedOn), SQLBind(student.active), SQLBind(student.typeID),
                SQLBind(student.notes), SQLBind(profileID), SQLBind(now.millisecondsSince1970)
            ).run()
        return try await self.student(id: id, profileID: profileID).readBack(or: .studentNotFound)
    }

    /// Saves an edit of a student. With `base` (the student as the form was opened on), only the fields the form
    /// changed are saved over what is stored (`Student.edited`), read and written in one transaction.
    public func updateStudent(_ student: Student, base: Student? = nil, profileID: String) async throws -> StudentRecord {
        try await database.transaction { db in
            guard
                let row = try await db.select().columns(Self.studentColumns).from("yoga_students").where("id", .equal, student.id)
                    .where("profile_id", .equal, profileID).first()
            else { throw YogaError.studentNotFound }
            let saved = try base.map { Student.edited(student, base: $0, current: try Self.student(row)) } ?? student
            try await Self.requireType(saved.typeID, profileID: profileID, on: db)
            try await db.update("yoga_students").set("name", to: SQLBind(saved.name)).set("joined_on", to: SQLBind(saved.joinedOn))
                .set("active", to: SQLBind(saved.active)).set("type_id", to: SQLBind(saved.typeID)).set("notes", to: SQLBind(saved.notes))
                .where("id", .equal, saved.id).where("profile_id", .equal, profileID).run()
        }
        return try await self.student(id: student.id, profileID: profileID).readBack(or: .studentNotFound)
    }

    /// Deletes a student. One who attended sessions needs `confirmed`; their attendance stays, by name.
    public func deleteStudent(id: String, profileID: String, confirmed: Bool) async throws {
        try await database.transaction { db in
            guard
                try await db.select().column("id").from("yoga_students").where("id", .equal, id).where("profile_id", .equal, profileID)
                    .first() != nil
            else { throw YogaError.studentNotFound }
            let attended =
                try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("yoga_attendance")
                .where("student_id", .equal, id).first()?.decode(column: "n", as: Int.self) ?? 0
            if attended > 0, !confirmed { throw YogaError.studentHasSessions(attended) }
            try await db.update("yoga_attendance").set("student_id", to: SQLLiteral.null).where("student_id", .equal, id).run()
            try await db.delete(from: "yoga_students").where("id", .equal, id).where("profile_id", .equal, profileID).run()
            // And off the class in session, if they were in it.
            if let row = try await db.select().column("attendee_ids").from("yoga_classes").where("profile_id", .equal, profileID).first() {
                let ids = YogaClassRepository.ids(try row.decode(column: "attendee_ids", as: String.self)).filter { $0 != id }
                try await db.update("yoga_classes").set("attendee_ids", to: SQLBind(ids.joined(separator: ",")))
                    .where("profile_id", .equal, profileID).run()
            }
        }
    }

    /// Which of `ids` are not this profile's students.
    public func unknownStudents(_ ids: [String], profileID: String) async throws -> [String] {
        guard !ids.isEmpty else { return [] }
        let found = try await Self.studentIDsQuery.all([profileID] + Array(Set(ids)), on: database)
            .map { try $0.decode(column: "id", as: String.self) }
        return ids.filter { !found.contains($0) }
    }

    /// Values: the profile, then the ids to look for. Asked on every change of a live class's attendance.
    static let studentIDsQuery = PreparedQuery(isRead: true) { database, values in
        database.select().column("id").from("yoga_students").where("profile_id", .equal, values[0])
            .where("id", .in, SQLGroupExpression(Array(values.dropFirst()))).select
    }

    // MARK: Student types

    public struct TypeRecord: Sendable, Equatable {
        public let type: StudentType
        public let studentCount: Int
    }

    /// The profile's types; a profile that never had any gets the defaults first.
    public func types(profileID: String, now: Date = Date()) async throws -> [TypeRecord] {
        try await seedTypes(profileID: profileID, now: now)
        let rows = try await database.select().columns("id", "name").from("yoga_student_types").where("profile_id", .equal, profileID)
            .orderBy("created_at").orderBy("name").all()
        let counts = try await database.select().column("type_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("yoga_students").where("profile_id", .equal, profileID).where("type_id", .isNot, SQLLiteral.null).groupBy("type_id").all()
        var byType: [String: Int] = [:]
        for row in counts { byType[try row.decode(column: "type_id", as: String.self)] = try row.decode(column: "n", as: Int.self) }
        return try rows.map { row in
            let type = StudentType(id: try row.decode(column: "id", as: String.self), name: try row.decode(column: "name", as: String.self))
            return TypeRecord(type: type, studentCount: byType[type.id] ?? 0)
        }
    }

    public func createType(name: String, profileID: String, now: Date = Date()) async throws -> TypeRecord {
        try await seedTypes(profileID: profileID, now: now)
        let id = "t" + Token.make(length: 15)
        try await database.transaction { db in
            try await Self.requireUniqueTypeName(name, except: nil, profileID: profileID, on: db)
            try await db.insert(into: "yoga_student_types").columns("id", "profile_id", "name", "created_at")
                .values(SQLBind(id), SQLBind(profileID), SQLBind(name), SQLBind(now.millisecondsSince1970)).run()
        }
        return TypeRecord(type: StudentType(id: id, name: name), studentCount: 0)
    }

    public func renameType(id: String, name: String, profileID: String) async throws -> TypeRecord {
        try await requireType(id, profileID: profileID)
        try await database.transaction { db in
            try await Self.requireUniqueTypeName(name, except: id, profileID: profileID, on: db)
            try await db.update("yoga_student_types").set("name", to: SQLBind(name)).where("id", .equal, id).where(
                "profile_id", .equal, profileID
            ).run()
        }
        return try await types(profileID: profileID).first { $0.type.id == id }!
    }

    /// Type names are unique per instructor whatever their case: "Member" and "member" are one type.
    static func requireUniqueTypeName(_ name: String, except id: String?, profileID: String, on db: any SQLDatabase) async throws {
        var query = db.select().column("id").from("yoga_student_types").where("profile_id", .equal, profileID)
            .where(SQLFunction("LOWER", args: SQLColumn("name")), .equal, SQLBind(name.lowercased()))
        if let id { query = query.where("id", .notEqual, id) }
        if try await query.first() != nil { throw YogaError.studentTypeExists(name) }
    }

    /// Deletes a type; its students keep everything but the type.
    public func deleteType(id: String, profileID: String) async throws {
        try await requireType(id, profileID: profileID)
        try await database.transaction { db in
            try await db.update("yoga_students").set("type_id", to: SQLLiteral.null).where("type_id", .equal, id).where(
                "profile_id", .equal, profileID
            ).run()
            try await db.delete(from: "yoga_student_types").where("id", .equal, id).where("profile_id", .equal, profileID).run()
        }
    }

    private func requireType(_ id: String?, profileID: String) async throws {
        try await Self.requireType(id, profileID: profileID, on: database)
    }

    private static func requireType(_ id: String?, profileID: String, on db: any SQLDatabase) async throws {
        guard let id else { return }
        guard
            try await db.select().column("id").from("yoga_student_types").where("id", .equal, id).where("profile_id", .equal, profileID)
                .first() != nil
        else { throw YogaError.studentTypeNotFound }
    }

    /// The defaults are written once, when the settings row is first made: deleting them all sticks.
    private func seedTypes(profileID: String, now: Date) async throws {
        guard try await database.select().column("profile_id").from("yoga_settings").where("profile_id", .equal, profileID).first() == nil
        else { return }
        try await database.transaction { db in
            // Only the request whose settings row went in seeds the types: several first requests at once (a
            // first visit straight to the roster) would each add them otherwise.
            let inserted = try await db.insert(into: "yoga_settings").columns("profile_id", "temperature_unit", "slipping_weeks")
                .values(
                    SQLBind(profileID), SQLBind(YogaSettings.default.temperatureUnit.rawValue), SQLBind(YogaSettings.default.slippingWeeks)
                )
                .ignoringConflicts(with: ["profile_id"]).returning("profile_id").first()
            guard inserted != nil else { return }
            for (offset, name) in StudentType.defaults.enumerated() {
                try await db.insert(into: "yoga_student_types").columns("id", "profile_id", "name", "created_at")
                    .values(
                        SQLBind("t" + Token.make(length: 15)), SQLBind(profileID), SQLBind(name),
                        SQLBind(now.millisecondsSince1970 + Int64(offset))
                    ).run()
            }
        }
    }

    // MARK: Settings

    public func settings(profileID: String) async throws -> YogaSettings {
        try await seedTypes(profileID: profileID, now: Date())
        let row = try await database.select().columns("temperature_unit", "slipping_weeks").from("yoga_settings").where(
            "profile_id", .equal, profileID
        ).first()
        guard let row, let unit = YogaSettings.TemperatureUnit(rawValue: try row.decode(column: "temperature_unit", as: String.self)) else {
            return .default
        }
        return YogaSettings(temperatureUnit: unit, slippingWeeks: try row.decode(column: "slipping_weeks", as: Int.self))
    }

    public func saveSettings(_ settings: YogaSettings, profileID: String) async throws {
        try await seedTypes(profileID: profileID, now: Date())
        try await database.update("yoga_settings").set("temperature_unit", to: SQLBind(settings.temperatureUnit.rawValue))
            .set("slipping_weeks", to: SQLBind(settings.slippingWeeks)).where("profile_id", .equal, profileID).run()
    }

    static func student(_ row: any SQLRow) throws -> Student {
        Student(
            id: try row.decode(column: "id", as: String.self), name: try row.decode(column: "name", as: String.self),
            joinedOn: try row.decode(column: "joined_on", as: String.self), active: try row.decode(column: "active", as: Bool.self),
            typeID: try row.decodeNil(column: "type_id") ? nil : row.decode(column: "type_id", as: String.self),
            notes: try row.decode(column: "notes", as: String.self)
        )
    }
}
