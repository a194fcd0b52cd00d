import Foundation
import Hummingbird
import Storage
import YogiYogini

/// `/api/v1/yoga/sessions…`, `stats` and `export.csv`: the instructor's history.
struct YogaSessionsAPIController {
    let sessions: YogaSessionRepository
    let roster: YogaRosterRepository
    let venues: YogaVenueRepository

    /// `api`: the group at `/api/v1/yoga`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get("sessions", use: list)
            .post("sessions", use: record)
            .get("stats", use: stats)
            .get("export.csv", use: export)
        api.withProfile("sessions/{id}", otherwise: YogaError.sessionNotFound)
            .get(use: one)
            .put(use: correct)
            .delete(use: delete)
        api.withProfile("students/{id}/sessions", otherwise: YogaError.studentNotFound)
            .get(use: attended)
    }

    struct SessionsAnswer: APIAnswer {
        let sessions: [SessionJSON]
    }

    @Sendable func list(_ request: Request, context: TroveRequestContext) async throws -> SessionsAnswer {
        guard let profile = context.session.profile else { return SessionsAnswer(sessions: []) }
        var all = try await sessions.list(profileID: profile.id)
        let descending = try YogaRosterAPIController.descending(request) || request.queryString("order") == nil
        // Ascending first, ties by time; reversed for descending (the default, newest first).
        switch request.queryString("sort") ?? "date" {
        case "date": all.sort { $0.startedAt < $1.startedAt }
        case "venue": all.sort { ($0.place.name.lowercased(), $0.startedAt) < ($1.place.name.lowercased(), $1.startedAt) }
        case "attendance": all.sort { ($0.attendees.count, $0.startedAt) < ($1.attendees.count, $1.startedAt) }
        case "duration": all.sort { ($0.duration, $0.startedAt) < ($1.duration, $1.startedAt) }
        default: throw APIError.badRequest("'sort' must be date, venue, attendance or duration.")
        }
        if descending { all.reverse() }
        return SessionsAnswer(sessions: all.map(SessionJSON.init))
    }

    /// The sessions a student attended, newest first: their attendance history.
    @Sendable func attended(_ request: Request, context: ProfileRequestContext) async throws -> SessionsAnswer {
        let id = try context.parameters.require("id")
        guard try await roster.student(id: id, profileID: context.profile.id) != nil else { throw YogaError.studentNotFound }
        let there = try await sessions.list(profileID: context.profile.id)
            .filter { $0.attendees.contains { $0.studentID == id } }
            .sorted { $0.startedAt > $1.startedAt }
        return SessionsAnswer(sessions: there.map(SessionJSON.init))
    }

    @Sendable func one(_ request: Request, context: ProfileRequestContext) async throws -> SessionJSON {
        let id = try context.parameters.require("id")
        guard let session = try await sessions.session(id: id, profileID: context.profile.id) else { throw YogaError.sessionNotFound }
        return SessionJSON(session)
    }

    struct CorrectionBody: Decodable {
        let started_at: String
        let ended_at: String
        let attendees: [String]
        let notes: String?
        let temperature_c: Double?
        let as_known: AsKnown?
        /// The session as the correction's form was opened (the same fields): what it did not change keeps what was
        /// corrected meanwhile on another device.
        let base: CorrectionBase?

        func correction() throws(YogaError) -> SessionCorrection {
            let start = try YogaTime.parse(started_at, field: "started_at")
            let end = try YogaTime.parse(ended_at, field: "ended_at")
            try YogaValidation.times(start: start, end: end)
            guard attendees.count <= 500 else { throw YogaError.invalid("At most 500 attendees.") }
            return SessionCorrection(
                startedAt: start, endedAt: end, attendeeIDs: attendees, notes: try YogaValidation.notes(notes, over: base?.notes),
                temperatureCelsius: try YogaValidation.temperature(temperature_c))
        }
    }

    /// `CorrectionBody.base`: a session as a correction states one.
    struct CorrectionBase: Decodable {
        let started_at: String
        let ended_at: String
        let attendees: [String]
        let notes: String
        let temperature_c: Double?

        /// Checked as a correction over itself: its notes are what was saved, however long merging made them.
        func correction() throws(YogaError) -> SessionCorrection {
            try CorrectionBody(
                started_at: started_at, ended_at: ended_at, attendees: attendees, notes: notes, temperature_c: temperature_c, as_known: nil,
                base: self
            )
            .correction()
        }
    }

    /// What the device knew of a class sent after it ended, for what was deleted on another device meanwhile: its
    /// attendees' names by id, and its venue. Those are kept as a student or venue deleted after a class is kept,
    /// so a class held offline is not refused as a whole for them.
    struct AsKnown: Decodable {
        let attendees: [String: String]?
        let venue: YogaVenuesAPIController.PlaceBody?
    }

    struct RecordBody: Decodable {
        let venue_id: String?
        let venue: YogaVenuesAPIController.PlaceBody?
        let started_at: String
        let ended_at: String
        let attendees: [String]
        let notes: String?
        let temperature_c: Double?
        let as_known: AsKnown?
    }

    /// A whole class in one write: what the offline outbox sends for a class held without a connection, so it
    /// never meets a class running on another device.
    @Sendable func record(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<SessionJSON> {
        let body = try await JSONBody.decode(RecordBody.self, from: request)
        let start = try YogaTime.parse(body.started_at, field: "started_at")
        let end = try YogaTime.parse(body.ended_at, field: "ended_at")
        try YogaValidation.times(start: start, end: end)
        let notes = try YogaValidation.notes(body.notes)
        let temperature = try YogaValidation.temperature(body.temperature_c)
        guard body.attendees.count <= 500 else { throw YogaError.invalid("At most 500 attendees.") }
        let profile = try await context.session.requireProfile()
        let unknown = try await roster.unknownStudents(body.attendees, profileID: profile.id)
        let departed = try YogaValidation.departed(unknown, knownNames: body.as_known?.attendees)
        let venue = try await venue(body, profileID: profile.id)
        let session = try await sessions.record(
            venueID: venue.id, place: venue.place, startedAt: start, endedAt: end, attendeeIDs: body.attendees, departed: departed,
            notes: notes, temperature: temperature, profileID: profile.id
        )
        return EditedResponse(status: .created, response: SessionJSON(session))
    }

    /// The class's venue: a saved one, a new one, or, for a saved one deleted on another device meanwhile, the place
    /// as the device knew it, kept on the session only.
    private func venue(_ body: RecordBody, profileID: String) async throws -> (id: String?, place: VenuePlace) {
        if let id = body.venue_id, body.venue == nil, let known = body.as_known?.venue,
            try await venues.venue(id: id, profileID: profileID) == nil
        {
            return (nil, try YogaValidation.place(known.place))
        }
        let saved = try await YogaClassAPIController.venue(id: body.venue_id, place: body.venue, profileID: profileID, venues: venues)
        return (saved.id, saved.place)
    }

    @Sendable func correct(_ request: Request, context: ProfileRequestContext) async throws -> SessionJSON {
        let id = try context.parameters.require("id")
        let body = try await JSONBody.decode(CorrectionBody.self, from: request)
        let correction = try body.correction()
        let base = try body.base?.correction()
        let profile = context.profile
        guard try await sessions.session(id: id, profileID: profile.id) != nil else { throw YogaError.sessionNotFound }
        let unknown = try await roster.unknownStudents(body.attendees, profileID: profile.id)
        let departed = try YogaValidation.departed(unknown, knownNames: body.as_known?.attendees)
        let session = try await sessions.correct(id: id, correction, base: base, departed: departed, profileID: profile.id)
        return SessionJSON(session)
    }

    @Sendable func delete(_ request: Request, context: ProfileRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("id")
        try await sessions.delete(id: id, profileID: context.profile.id)
        return .noContent
    }

    @Sendable func stats(_ request: Request, context: TroveRequestContext) async throws -> StatsJSON {
        let profile = try await context.session.requireProfile()
        let settings = try await roster.settings(profileID: profile.id)
        let figures = YogaStatistics(
            sessions: try await sessions.list(profileID: profile.id).map {
                .init(startedAt: $0.startedAt, venueID: $0.venueID, venueName: $0.place.name, attendeeIDs: $0.attendees.map(\.studentID))
            },
            students: try await roster.students(profileID: profile.id).map(\.student), now: Date(), slippingWeeks: settings.slippingWeeks
        )
        return StatsJSON(figures, slippingWeeks: settings.slippingWeeks)
    }

    @Sendable func export(_ request: Request, context: TroveRequestContext) async throws -> Response {
        let kind = request.queryString("kind") ?? "sessions"
        guard ["sessions", "attendance"].contains(kind) else { throw APIError.badRequest("'kind' must be sessions or attendance.") }
        var style = YogaCSV.Style()
        if let name = request.queryString("tz") {
            guard let timeZone = TimeZone(identifier: name) else {
                throw APIError.badRequest("'\(name)' is not a time zone: use a name such as Europe/London.")
            }
            style.timeZone = timeZone
        }
        var all: [YogaSessionRepository.Session] = []
        if let profile = context.session.profile {
            all = try await sessions.list(profileID: profile.id)
            style.unit = try await roster.settings(profileID: profile.id).temperatureUnit
        }
        let text = kind == "sessions" ? YogaCSV.sessions(all, style: style) : YogaCSV.attendance(all, style: style)
        return Download.response(ByteBuffer(string: text), type: "text/csv; charset=utf-8", filename: "yoga-\(kind).csv")
    }
}
