import Foundation
import Storage
import YogiYogini

/// The sessions and the attendance as CSV, oldest first, for spreadsheets and bookkeeping.
enum YogaCSV {
    static func sessions(_ sessions: [YogaSessionRepository.Session]) -> String {
        var lines = ["session_id,venue,address,started_at,ended_at,duration_minutes,attendance,temperature_c,notes"]
        for session in sessions.sorted(by: { $0.startedAt < $1.startedAt }) {
            lines.append([
                session.id, session.place.name, session.place.address, iso(session.startedAt), iso(session.endedAt),
                String(Int((session.duration / 60).rounded())), String(session.attendees.count),
                session.temperatureCelsius.map { String($0) } ?? "", session.notes,
            ].map(CollectionExport.field).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func attendance(_ sessions: [YogaSessionRepository.Session]) -> String {
        var lines = ["session_id,started_at,venue,student_id,student_name"]
        for session in sessions.sorted(by: { $0.startedAt < $1.startedAt }) {
            for attendee in session.attendees {
                lines.append([session.id, iso(session.startedAt), session.place.name, attendee.studentID ?? "", attendee.name]
                    .map(CollectionExport.field).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func iso(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}

/// The statistics as the API shows them.
struct StatsJSON: Encodable {
    let figures: YogaStatistics
    let slippingWeeks: Int

    init(_ figures: YogaStatistics, slippingWeeks: Int) {
        self.figures = figures
        self.slippingWeeks = slippingWeeks
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(figures.students.map { Student(id: $0.id, name: $0.name, active: $0.active, sessions_30d: $0.last30Days,
                                                             sessions_90d: $0.last90Days, total: $0.total, last_seen: $0.lastSeen) }, forKey: .students)
        try container.encode(figures.venues.map { Venue(id: $0.id, name: $0.name, sessions: $0.sessions,
                                                         average_attendance: ($0.averageAttendance * 10).rounded() / 10) }, forKey: .venues)
        try container.encode(figures.months.map { Month(month: $0.month, sessions: $0.sessions, attendance: $0.attendance) }, forKey: .months)
        try container.encode(figures.slipping.map { Slipping(id: $0.id, name: $0.name, last_seen: $0.lastSeen, weeks_absent: $0.weeksAbsent) },
                             forKey: .slipping)
        try container.encode(slippingWeeks, forKey: .slipping_weeks)
    }

    enum Keys: String, CodingKey { case students, venues, months, slipping, slipping_weeks }

    struct Student: Encodable {
        let id: String
        let name: String
        let active: Bool
        let sessions_30d: Int
        let sessions_90d: Int
        let total: Int
        let last_seen: Date?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(active, forKey: .active)
            try container.encode(sessions_30d, forKey: .sessions_30d)
            try container.encode(sessions_90d, forKey: .sessions_90d)
            try container.encode(total, forKey: .total)
            try container.encode(last_seen, forKey: .last_seen)
        }

        enum CodingKeys: String, CodingKey { case id, name, active, sessions_30d, sessions_90d, total, last_seen }
    }

    struct Venue: Encodable {
        let id: String?
        let name: String
        let sessions: Int
        let average_attendance: Double

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(sessions, forKey: .sessions)
            try container.encode(average_attendance, forKey: .average_attendance)
        }

        enum CodingKeys: String, CodingKey { case id, name, sessions, average_attendance }
    }

    struct Month: Encodable {
        let month: String
        let sessions: Int
        let attendance: Int
    }

    struct Slipping: Encodable {
        let id: String
        let name: String
        let last_seen: Date?
        let weeks_absent: Int?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(last_seen, forKey: .last_seen)
            try container.encode(weeks_absent, forKey: .weeks_absent)
        }

        enum CodingKeys: String, CodingKey { case id, name, last_seen, weeks_absent }
    }
}
