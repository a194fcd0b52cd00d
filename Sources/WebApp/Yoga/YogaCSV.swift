import Foundation
import Storage
import YogiYogini

/// The sessions and the attendance as CSV, oldest first, for spreadsheets and bookkeeping.
enum YogaCSV {
    /// Times in the instructor's time zone with its offset (`2026-11-25T09:30:00-08:00`); the temperature in
    /// the unit they chose, the column named for it.
    struct Style {
        var timeZone = TimeZone(identifier: "UTC")! {
            didSet { formatter = Self.formatter(in: timeZone) }
        }
        var unit = YogaSettings.TemperatureUnit.celsius
        /// One for every time written: a formatter made per time was most of an attendance export's cost (issue 65: 13 s
        /// for a studio's five years).
        private var formatter = Style.formatter(in: TimeZone(identifier: "UTC")!)

        private static func formatter(in timeZone: TimeZone) -> ISO8601DateFormatter {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = timeZone
            return formatter
        }

        func time(_ date: Date) -> String { formatter.string(from: date) }

        var temperatureColumn: String { unit == .celsius ? "temperature_c" : "temperature_f" }

        func temperature(_ celsius: Double?) -> String {
            guard let celsius else { return "" }
            let value = unit == .celsius ? celsius : celsius * 9 / 5 + 32
            return String((value * 10).rounded() / 10)
        }
    }

    static func sessions(_ sessions: [YogaSessionRepository.Session], style: Style = Style()) -> String {
        var lines = ["session_id,venue,address,started_at,ended_at,duration_minutes,attendance,\(style.temperatureColumn),notes"]
        for session in sessions.sorted(by: { $0.startedAt < $1.startedAt }) {
            lines.append(
                CSV.line([
                    session.id, session.place.name, session.place.address, style.time(session.startedAt), style.time(session.endedAt),
                    String(Int((session.duration / 60).rounded())), String(session.attendees.count),
                    style.temperature(session.temperatureCelsius), session.notes,
                ]))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func attendance(_ sessions: [YogaSessionRepository.Session], style: Style = Style()) -> String {
        var lines = ["session_id,started_at,venue,student_id,student_name"]
        for session in sessions.sorted(by: { $0.startedAt < $1.startedAt }) {
            for attendee in session.attendees {
                lines.append(
                    CSV.line([session.id, style.time(session.startedAt), session.place.name, attendee.studentID ?? "", attendee.name]))
            }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}

/// The statistics as the API shows them.
struct StatsJSON: APIAnswer {
    struct Student: Encodable {
        let id: String
        let name: String
        let active: Bool
        let sessions_30d: Int
        let sessions_90d: Int
        let total: Int
        @Nullable var last_seen: Date?
    }

    struct Venue: Encodable {
        @Nullable var id: String?
        let name: String
        let sessions: Int
        let average_attendance: Double
    }

    struct Month: Encodable {
        let month: String
        let sessions: Int
        let attendance: Int
    }

    struct Slipping: Encodable {
        let id: String
        let name: String
        @Nullable var last_seen: Date?
        @Nullable var weeks_absent: Int?
    }

    let students: [Student]
    let venues: [Venue]
    let months: [Month]
    let slipping: [Slipping]
    let slipping_weeks: Int

    init(_ figures: YogaStatistics, slippingWeeks: Int) {
        students = figures.students.map {
            Student(
                id: $0.id, name: $0.name, active: $0.active, sessions_30d: $0.last30Days, sessions_90d: $0.last90Days, total: $0.total,
                last_seen: $0.lastSeen)
        }
        venues = figures.venues.map {
            Venue(id: $0.id, name: $0.name, sessions: $0.sessions, average_attendance: ($0.averageAttendance * 10).rounded() / 10)
        }
        months = figures.months.map { Month(month: $0.month, sessions: $0.sessions, attendance: $0.attendance) }
        slipping = figures.slipping.map { Slipping(id: $0.id, name: $0.name, last_seen: $0.lastSeen, weeks_absent: $0.weeksAbsent) }
        slipping_weeks = slippingWeeks
    }
}
