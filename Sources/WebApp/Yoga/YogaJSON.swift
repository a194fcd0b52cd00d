import Foundation
import Storage
import YogiYogini

/// The yoga API's shapes. Times are ISO 8601 in UTC; temperatures Celsius.
struct StudentJSON: Encodable {
    let id: String
    let name: String
    let joined_on: String
    let active: Bool
    let type_id: String?
    let type_name: String?
    let notes: String
    let sessions_attended: Int
    let last_seen: Date?

    init(_ record: YogaRosterRepository.StudentRecord) {
        id = record.student.id
        name = record.student.name
        joined_on = record.student.joinedOn
        active = record.student.active
        type_id = record.student.typeID
        type_name = record.typeName
        notes = record.student.notes
        sessions_attended = record.sessionsAttended
        last_seen = record.lastSeen
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(joined_on, forKey: .joined_on)
        try container.encode(active, forKey: .active)
        try container.encode(type_id, forKey: .type_id)
        try container.encode(type_name, forKey: .type_name)
        try container.encode(notes, forKey: .notes)
        try container.encode(sessions_attended, forKey: .sessions_attended)
        try container.encode(last_seen, forKey: .last_seen)
    }

    enum CodingKeys: String, CodingKey { case id, name, joined_on, active, type_id, type_name, notes, sessions_attended, last_seen }
}

struct StudentTypeJSON: Encodable {
    let id: String
    let name: String
    let student_count: Int

    init(_ record: YogaRosterRepository.TypeRecord) {
        id = record.type.id
        name = record.type.name
        student_count = record.studentCount
    }
}

/// A place as sessions and the class show it; nulls are written, not left out.
struct PlaceJSON: Encodable {
    let id: String?
    let name: String
    let address: String
    let latitude: Double?
    let longitude: Double?

    init(id: String?, _ place: VenuePlace) {
        self.id = id
        name = place.name
        address = place.address
        latitude = place.latitude
        longitude = place.longitude
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(address, forKey: .address)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
    }

    enum CodingKeys: String, CodingKey { case id, name, address, latitude, longitude }
}

struct VenueJSON: Encodable {
    let venue: YogaVenueRepository.Venue

    init(_ venue: YogaVenueRepository.Venue) {
        self.venue = venue
    }

    func encode(to encoder: any Encoder) throws {
        try PlaceJSON(id: venue.id, venue.place).encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(venue.source, forKey: .source)
        try container.encode(venue.externalID, forKey: .external_id)
        try container.encode(venue.favourite, forKey: .favourite)
        try container.encode(venue.lastUsedAt, forKey: .last_used_at)
        try container.encode(venue.sessionCount, forKey: .session_count)
    }

    enum Keys: String, CodingKey { case source, external_id, favourite, last_used_at, session_count }
}

struct AttendeeJSON: Encodable {
    let id: String?
    let name: String

    init(_ attendee: Attendee) {
        id = attendee.studentID
        name = attendee.name
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
    }

    enum CodingKeys: String, CodingKey { case id, name }
}

struct ClassJSON: Encodable {
    let venue: PlaceJSON
    let started_at: Date
    let attendees: [AttendeeJSON]
    let temperature_c: Double?
    let notes: String
    let elapsed_seconds: Int

    init(_ running: YogaClassRepository.RunningClass, now: Date) {
        venue = PlaceJSON(id: running.venueID, running.place)
        started_at = running.startedAt
        attendees = running.attendees.map(AttendeeJSON.init)
        temperature_c = running.temperatureCelsius
        notes = running.notes
        elapsed_seconds = max(0, Int(now.timeIntervalSince(running.startedAt)))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(venue, forKey: .venue)
        try container.encode(started_at, forKey: .started_at)
        try container.encode(attendees, forKey: .attendees)
        try container.encode(temperature_c, forKey: .temperature_c)
        try container.encode(notes, forKey: .notes)
        try container.encode(elapsed_seconds, forKey: .elapsed_seconds)
    }

    enum CodingKeys: String, CodingKey { case venue, started_at, attendees, temperature_c, notes, elapsed_seconds }
}

struct SessionJSON: Encodable {
    let session: YogaSessionRepository.Session

    init(_ session: YogaSessionRepository.Session) {
        self.session = session
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session.id, forKey: .id)
        try container.encode(PlaceJSON(id: session.venueID, session.place), forKey: .venue)
        try container.encode(session.startedAt, forKey: .started_at)
        try container.encode(session.endedAt, forKey: .ended_at)
        try container.encode(Int(session.duration.rounded()), forKey: .duration_seconds)
        try container.encode(session.attendees.map(AttendeeJSON.init), forKey: .attendees)
        try container.encode(session.attendees.count, forKey: .attendance)
        try container.encode(session.temperatureCelsius, forKey: .temperature_c)
        try container.encode(session.notes, forKey: .notes)
    }

    enum CodingKeys: String, CodingKey { case id, venue, started_at, ended_at, duration_seconds, attendees, attendance, temperature_c, notes }
}

/// ISO 8601 times from request bodies, with or without fractional seconds; anything else is a clear 422.
enum YogaTime {
    static func parse(_ text: String, field: String) throws(YogaError) -> Date {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = plain.date(from: text) ?? fractional.date(from: text) else {
            throw .invalid("'\(field)' must be a time such as 2026-11-22T18:00:00Z.")
        }
        return date
    }
}
