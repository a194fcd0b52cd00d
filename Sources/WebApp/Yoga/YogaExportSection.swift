import Foundation
import SQLKit
import Storage
import YogiYogini

/// The YogiYogini part of the account export: settings, roster, types, venues, the class in session, every session.
struct YogaExportSection: ProfileDataSection {
    let roster: YogaRosterRepository
    let venues: YogaVenueRepository
    let classes: YogaClassRepository
    let sessions: YogaSessionRepository
    let key = "yoga"

    struct Export: Encodable, Sendable {
        let settings: YogaRosterAPIController.SettingsJSON
        let students: [StudentJSON]
        let studentTypes: [StudentTypeJSON]
        let venues: [VenueJSON]
        let classInSession: ClassJSON?
        let sessions: [SessionJSON]

        enum CodingKeys: String, CodingKey {
            case settings, students
            case studentTypes = "student_types"
            case venues
            case classInSession = "class_in_session"
            case sessions
        }
    }

    func export(profileID: String) async throws -> any Encodable & Sendable {
        let settings = try await roster.settings(profileID: profileID)
        return Export(
            settings: .init(temperature_unit: settings.temperatureUnit.rawValue, slipping_weeks: settings.slippingWeeks),
            students: try await roster.students(profileID: profileID).map(StudentJSON.init),
            studentTypes: try await roster.types(profileID: profileID).map(StudentTypeJSON.init),
            venues: try await venues.list(profileID: profileID).map(VenueJSON.init),
            classInSession: try await classes.current(profileID: profileID).map { ClassJSON($0, now: Date()) },
            sessions: try await sessions.list(profileID: profileID).map(SessionJSON.init)
        )
    }

    /// What an import reads back of `Export` (the fields the records are made from).
    struct Import: Decodable {
        struct Student: Decodable {
            let id: String
            let name: String
            let joined_on: String
            let active: Bool
            let type_id: String?
            let notes: String
        }

        struct StudentType: Decodable {
            let id: String
            let name: String
        }

        struct Venue: Decodable {
            let id: String
            let name: String
            let address: String
            let latitude: Double?
            let longitude: Double?
            let source: String
            let external_id: String?
            let favourite: Bool
        }

        struct Place: Decodable {
            let id: String?
            let name: String
            let address: String
            let latitude: Double?
            let longitude: Double?
        }

        struct Attendee: Decodable {
            let id: String?
            let name: String
        }

        struct Class: Decodable {
            let venue: Place
            let started_at: Date
            let ended_at: Date?
            let temperature_c: Double?
            let notes: String
            let attendees: [Attendee]
        }

        let settings: YogaRosterAPIController.SettingsJSON?
        let students: [Student]
        let studentTypes: [StudentType]
        let venues: [Venue]
        let classInSession: Class?
        let sessions: [Class]

        enum CodingKeys: String, CodingKey {
            case settings, students
            case studentTypes = "student_types"
            case venues
            case classInSession = "class_in_session"
            case sessions
        }
    }

    /// Records get new ids and the sessions, the class in session and the students follow them; a student type
    /// with a name this profile already has (the three every roster starts with) is that type.
    func importData(_ data: Data, profileID: String, on db: any SQLDatabase, report: inout ImportReport) async throws {
        let part = try JSONBody.decoder.decode(Import.self, from: data)
        let roster = YogaRosterRepository(database: db)
        if let settings = part.settings, let unit = YogaSettings.TemperatureUnit(rawValue: settings.temperature_unit),
            YogaSettings.slippingWeeksRange.contains(settings.slipping_weeks)
        {
            try await roster.saveSettings(.init(temperatureUnit: unit, slippingWeeks: settings.slipping_weeks), profileID: profileID)
        }
        var types: [String: String] = [:]
        let existing = try await roster.types(profileID: profileID)
        for type in part.studentTypes {
            if let same = existing.first(where: { $0.type.name.lowercased() == type.name.lowercased() }) {
                types[type.id] = same.type.id
            } else {
                types[type.id] = try await roster.createType(name: type.name, profileID: profileID).type.id
            }
        }
        var students: [String: String] = [:]
        for student in part.students {
            let made = try await roster.createStudent(
                Student(
                    id: "", name: student.name, joinedOn: student.joined_on, active: student.active,
                    typeID: student.type_id.flatMap { types[$0] }, notes: student.notes),
                profileID: profileID)
            students[student.id] = made.student.id
        }
        report.add("students", students.count)
        let venueRepository = YogaVenueRepository(database: db)
        var venues: [String: String] = [:]
        for venue in part.venues {
            let place = VenuePlace(name: venue.name, address: venue.address, latitude: venue.latitude, longitude: venue.longitude)
            let saved = try await venueRepository.save(place, source: venue.source, externalID: venue.external_id, profileID: profileID)
            if venue.favourite {
                _ = try await venueRepository.update(
                    id: saved.id, name: venue.name, address: venue.address, favourite: true, profileID: profileID)
            }
            venues[venue.id] = saved.id
        }
        report.add("venues", venues.count)
        var unknownAttendees = 0
        func attendeeIDs(_ attendees: [Import.Attendee]) -> [String] {
            attendees.compactMap { attendee in
                guard let id = attendee.id.flatMap({ students[$0] }) else {
                    unknownAttendees += 1
                    return nil
                }
                return id
            }
        }
        func place(_ venue: Import.Place) -> VenuePlace {
            VenuePlace(name: venue.name, address: venue.address, latitude: venue.latitude, longitude: venue.longitude)
        }
        let sessions = YogaSessionRepository(database: db)
        for session in part.sessions {
            _ = try await sessions.record(
                venueID: session.venue.id.flatMap { venues[$0] }, place: place(session.venue), startedAt: session.started_at,
                endedAt: session.ended_at ?? session.started_at, attendeeIDs: attendeeIDs(session.attendees), notes: session.notes,
                temperature: session.temperature_c, profileID: profileID)
        }
        report.add("sessions", part.sessions.count)
        if let running = part.classInSession {
            let classes = YogaClassRepository(database: db)
            _ = try await classes.start(
                venueID: running.venue.id.flatMap { venues[$0] }, place: place(running.venue), attendeeIDs: attendeeIDs(running.attendees),
                notes: running.notes, profileID: profileID, at: running.started_at)
            if let temperature = running.temperature_c { try await classes.setTemperature(temperature, profileID: profileID) }
            report.add("class_in_session")
        }
        if unknownAttendees > 0 {
            report.skipped.append("\(unknownAttendees) attendance(s) of students no longer on the roster were left out.")
        }
    }
}
