import Foundation
import Hummingbird
import Storage
import YogiYogini

/// `/api/v1/yoga/students`, `student-types` and `settings`: the roster and the instructor's preferences.
struct YogaRosterAPIController {
    let roster: YogaRosterRepository

    /// `api`: the group at `/api/v1/yoga`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get("students", use: students)
            .post("students", use: createStudent)
            .get("student-types", use: types)
            .post("student-types", use: createType)
            .get("settings", use: settings)
            .put("settings", use: saveSettings)
        api.withProfile("students/{id}", otherwise: YogaError.studentNotFound)
            .get(use: student)
            .put(use: updateStudent)
            .delete(use: deleteStudent)
        api.withProfile("student-types/{id}", otherwise: YogaError.studentTypeNotFound)
            .put(use: renameType)
            .delete(use: deleteType)
    }

    struct StudentBody: Decodable {
        let name: String
        let joined_on: String?
        let active: Bool?
        let type_id: String?
        let notes: String?
        /// An edit's form as it was opened (the same fields): what it did not change keeps what was saved meanwhile.
        let base: EditBase?

        func student(id: String, today: String) throws(YogaError) -> Student {
            Student(
                id: id, name: try YogaValidation.name(name), joinedOn: try YogaValidation.joiningDate(joined_on ?? today, now: Date()),
                active: active ?? true,
                typeID: type_id.flatMap { $0.isEmpty ? nil : $0 }, notes: try YogaValidation.notes(notes, over: base?.notes)
            )
        }
    }

    struct StudentsAnswer: APIAnswer, JSONWritable {
        let students: [StudentJSON]

        func write(to writer: inout JSONWriter) {
            writer.object { w in
                w.key("students")
                w.array(students) { w, student in student.write(to: &w) }
            }
        }
    }

    @Sendable func students(_ request: Request, context: TroveRequestContext) async throws -> StudentsAnswer {
        guard let profile = context.session.profile else { return StudentsAnswer(students: []) }
        var records = try await roster.students(profileID: profile.id)
        switch request.queryString("active") ?? "all" {
        case "true": records = records.filter(\.student.active)
        case "false": records = records.filter { !$0.student.active }
        case "all": break
        case let other: throw APIError.badRequest("'active' must be true, false or all, not '\(other)'.")
        }
        if let query = request.queryString("q") {
            let needle = query.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            records = records.filter {
                $0.student.name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).contains(needle)
            }
        }
        let descending = try Self.descending(request)
        /// By `key`, then by name.
        func sorted<Key: Comparable>(by key: (YogaRosterRepository.StudentRecord) -> Key) -> [YogaRosterRepository.StudentRecord] {
            records.map { (name: NameOrder($0.student.name), record: $0) }
                .sorted { a, b in
                    let (x, y) = (key(a.record), key(b.record))
                    return x != y ? x < y : a.name < b.name
                }
                .map(\.record)
        }
        switch request.queryString("sort") ?? "name" {
        case "name": records = sorted { _ in 0 }
        case "joined": records = sorted(by: \.student.joinedOn)
        case "attended": records = sorted(by: \.sessionsAttended)
        case "last_seen": records = sorted { $0.lastSeen ?? .distantPast }
        default: throw APIError.badRequest("'sort' must be name, joined, attended or last_seen.")
        }
        if descending { records.reverse() }
        return StudentsAnswer(students: records.map(StudentJSON.init))
    }

    static func descending(_ request: Request) throws -> Bool {
        switch request.queryString("order") ?? "asc" {
        case "asc": false
        case "desc": true
        default: throw APIError.badRequest("'order' must be asc or desc.")
        }
    }

    @Sendable func createStudent(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<StudentJSON> {
        let body = try await JSONBody.decode(StudentBody.self, from: request)
        let student = try body.student(id: "", today: Self.today())
        let profile = try await context.session.requireProfile()
        return EditedResponse(status: .created, response: StudentJSON(try await roster.createStudent(student, profileID: profile.id)))
    }

    @Sendable func student(_ request: Request, context: ProfileRequestContext) async throws -> StudentJSON {
        let id = try context.parameters.require("id")
        guard let record = try await roster.student(id: id, profileID: context.profile.id) else { throw YogaError.studentNotFound }
        return StudentJSON(record)
    }

    @Sendable func updateStudent(_ request: Request, context: ProfileRequestContext) async throws -> StudentJSON {
        let id = try context.parameters.require("id")
        let body = try await JSONBody.decode(StudentBody.self, from: request)
        let profile = context.profile
        // An edit states the whole student: leaving out the date or the active flag is a mistake, not "unchanged".
        guard let joined = body.joined_on, body.active != nil else {
            throw YogaError.invalid("An edit needs 'name', 'joined_on' and 'active'.")
        }
        let student = try body.student(id: id, today: joined)
        // A base is its own base: its notes are what was saved, however long merging made them.
        let base = try body.base.map { base throws(YogaError) in
            try StudentBody(
                name: base.name, joined_on: base.joined_on, active: base.active, type_id: base.type_id, notes: base.notes,
                base: base
            )
            .student(id: id, today: base.joined_on)
        }
        return StudentJSON(try await roster.updateStudent(student, base: base, profileID: profile.id))
    }

    /// `StudentBody.base`: a whole student, as an edit states one.
    struct EditBase: Decodable {
        let name: String
        let joined_on: String
        let active: Bool
        let type_id: String?
        let notes: String
    }

    @Sendable func deleteStudent(_ request: Request, context: ProfileRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("id")
        try await roster.deleteStudent(id: id, profileID: context.profile.id, confirmed: request.queryFlag("confirm"))
        return .noContent
    }

    struct TypesAnswer: APIAnswer {
        let types: [StudentTypeJSON]
    }

    struct TypeBody: Decodable {
        let name: String
    }

    @Sendable func types(_ request: Request, context: TroveRequestContext) async throws -> TypesAnswer {
        let profile = try await context.session.requireProfile()
        return TypesAnswer(types: try await roster.types(profileID: profile.id).map(StudentTypeJSON.init))
    }

    @Sendable func createType(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<StudentTypeJSON> {
        let name = try YogaValidation.name(try await JSONBody.decode(TypeBody.self, from: request).name, what: "The type's name")
        let profile = try await context.session.requireProfile()
        return EditedResponse(status: .created, response: StudentTypeJSON(try await roster.createType(name: name, profileID: profile.id)))
    }

    @Sendable func renameType(_ request: Request, context: ProfileRequestContext) async throws -> StudentTypeJSON {
        let id = try context.parameters.require("id")
        let name = try YogaValidation.name(try await JSONBody.decode(TypeBody.self, from: request).name, what: "The type's name")
        return StudentTypeJSON(try await roster.renameType(id: id, name: name, profileID: context.profile.id))
    }

    @Sendable func deleteType(_ request: Request, context: ProfileRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("id")
        try await roster.deleteType(id: id, profileID: context.profile.id)
        return .noContent
    }

    struct SettingsJSON: Codable, APIAnswer {
        let temperature_unit: String
        let slipping_weeks: Int
    }

    @Sendable func settings(_ request: Request, context: TroveRequestContext) async throws -> SettingsJSON {
        let profile = try await context.session.requireProfile()
        let settings = try await roster.settings(profileID: profile.id)
        return SettingsJSON(temperature_unit: settings.temperatureUnit.rawValue, slipping_weeks: settings.slippingWeeks)
    }

    @Sendable func saveSettings(_ request: Request, context: TroveRequestContext) async throws -> SettingsJSON {
        let body = try await JSONBody.decode(SettingsJSON.self, from: request)
        guard let unit = YogaSettings.TemperatureUnit(rawValue: body.temperature_unit) else {
            throw YogaError.invalid("'temperature_unit' must be celsius or fahrenheit.")
        }
        guard YogaSettings.slippingWeeksRange.contains(body.slipping_weeks) else {
            throw YogaError.invalid("'slipping_weeks' must be from 1 to 52.")
        }
        let profile = try await context.session.requireProfile()
        try await roster.saveSettings(YogaSettings(temperatureUnit: unit, slippingWeeks: body.slipping_weeks), profileID: profile.id)
        return body
    }

    /// Today's date in UTC, "YYYY-MM-DD" (a student's default joining date).
    static func today(_ now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: now)
    }
}
