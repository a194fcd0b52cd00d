import Foundation
import Storage
import YogiYogini

/// The yoga API's shapes. Times are ISO 8601 in UTC; temperatures Celsius; absent values are null.
struct StudentJSON: APIAnswer, JSONWritable {
    let id: String
    let name: String
    let joined_on: String
    let active: Bool
    @Nullable var type_id: String?
    @Nullable var type_name: String?
    let notes: String
    let sessions_attended: Int
    @Nullable var last_seen: Date?

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

    func write(to writer: inout JSONWriter) {
        writer.object { w in
            w.key("active")
            w.bool(active)
            w.key("id")
            w.string(id)
            w.key("joined_on")
            w.string(joined_on)
            w.key("last_seen")
            if let last_seen { w.date(last_seen) } else { w.null() }
            w.key("name")
            w.string(name)
            w.key("notes")
            w.string(notes)
            w.key("sessions_attended")
            w.integer(sessions_attended)
            w.key("type_id")
            w.string(type_id)
            w.key("type_name")
            w.string(type_name)
        }
    }
}

struct StudentTypeJSON: APIAnswer {
    let id: String
    let name: String
    let student_count: Int

    init(_ record: YogaRosterRepository.TypeRecord) {
        id = record.type.id
        name = record.type.name
        student_count = record.studentCount
    }
}

/// A place as sessions and the class show it.
struct PlaceJSON: Encodable, JSONWritable {
    @Nullable var id: String?
    let name: String
    let address: String
    @Nullable var latitude: Double?
    @Nullable var longitude: Double?

    init(id: String?, _ place: VenuePlace) {
        self.id = id
        name = place.name
        address = place.address
        latitude = place.latitude
        longitude = place.longitude
    }

    func write(to writer: inout JSONWriter) {
        writer.object { w in
            w.key("address")
            w.string(address)
            w.key("id")
            w.string(id)
            w.key("latitude")
            w.number(latitude)
            w.key("longitude")
            w.number(longitude)
            w.key("name")
            w.string(name)
        }
    }
}

struct VenueJSON: APIAnswer {
    let id: String
    let name: String
    let address: String
    @Nullable var latitude: Double?
    @Nullable var longitude: Double?
    let source: String
    @Nullable var external_id: String?
    let favourite: Bool
    @Nullable var last_used_at: Date?
    let session_count: Int

    init(_ venue: YogaVenueRepository.Venue) {
        id = venue.id
        name = venue.place.name
        address = venue.place.address
        latitude = venue.place.latitude
        longitude = venue.place.longitude
        source = venue.source
        external_id = venue.externalID
        favourite = venue.favourite
        last_used_at = venue.lastUsedAt
        session_count = venue.sessionCount
    }
}

struct AttendeeJSON: Encodable, JSONWritable {
    @Nullable var id: String?
    let name: String

    init(_ attendee: Attendee) {
        id = attendee.studentID
        name = attendee.name
    }

    func write(to writer: inout JSONWriter) {
        writer.object { w in
            w.key("id")
            w.string(id)
            w.key("name")
            w.string(name)
        }
    }
}

/// Written by hand (`JSONWritable`): the class is answered on every change of attendance, where JSONEncoder was
/// a tenth of the request.
struct ClassJSON: APIAnswer, JSONWritable {
    let venue: PlaceJSON
    let started_at: Date
    let attendees: [AttendeeJSON]
    @Nullable var temperature_c: Double?
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

    func write(to writer: inout JSONWriter) {
        writer.object { w in
            w.key("attendees")
            w.array(attendees) { w, attendee in attendee.write(to: &w) }
            w.key("elapsed_seconds")
            w.integer(elapsed_seconds)
            w.key("notes")
            w.string(notes)
            w.key("started_at")
            w.date(started_at)
            w.key("temperature_c")
            w.number(temperature_c)
            w.key("venue")
            venue.write(to: &w)
        }
    }
}

struct SessionJSON: APIAnswer {
    let id: String
    let venue: PlaceJSON
    let started_at: Date
    let ended_at: Date
    let duration_seconds: Int
    let attendees: [AttendeeJSON]
    let attendance: Int
    @Nullable var temperature_c: Double?
    let notes: String

    init(_ session: YogaSessionRepository.Session) {
        id = session.id
        venue = PlaceJSON(id: session.venueID, session.place)
        started_at = session.startedAt
        ended_at = session.endedAt
        duration_seconds = Int(session.duration.rounded())
        attendees = session.attendees.map(AttendeeJSON.init)
        attendance = session.attendees.count
        temperature_c = session.temperatureCelsius
        notes = session.notes
    }
}

/// Times read from strings in request bodies (`JSONBody.date`), with the field named in the 422.
enum YogaTime {
    static func parse(_ text: String, field: String) throws(YogaError) -> Date {
        guard let date = JSONBody.date(from: text) else { throw .invalid("'\(field)' must be a time such as 2026-11-22T18:00:00Z.") }
        return date
    }
}
