import Foundation

/// What the instructor reads from her history: attendance per student, venue and month, and who is
/// slipping away. Pure: the sessions and roster go in, the figures come out.
public struct YogaStatistics: Sendable, Equatable {
    public struct SessionFacts: Sendable, Equatable {
        public let startedAt: Date
        public let venueID: String?
        public let venueName: String
        public let attendeeIDs: [String?]

        public init(startedAt: Date, venueID: String?, venueName: String, attendeeIDs: [String?]) {
            self.startedAt = startedAt
            self.venueID = venueID
            self.venueName = venueName
            self.attendeeIDs = attendeeIDs
        }
    }

    public struct StudentFigures: Sendable, Equatable {
        public let id: String
        public let name: String
        public let active: Bool
        public let last30Days: Int
        public let last90Days: Int
        public let total: Int
        public let lastSeen: Date?
    }

    public struct VenueFigures: Sendable, Equatable {
        public let id: String?
        public let name: String
        public let sessions: Int
        public let averageAttendance: Double
    }

    public struct MonthFigures: Sendable, Equatable {
        /// "YYYY-MM", in UTC.
        public let month: String
        public let sessions: Int
        public let attendance: Int
    }

    public struct Slipping: Sendable, Equatable {
        public let id: String
        public let name: String
        public let lastSeen: Date?
        public let weeksAbsent: Int?
    }

    public let students: [StudentFigures]
    public let venues: [VenueFigures]
    public let months: [MonthFigures]
    public let slipping: [Slipping]

    /// `slippingWeeks`: an active student not seen for this many weeks (or never seen, having joined that
    /// long ago) is slipping away. Most absent first.
    public init(sessions: [SessionFacts], students: [Student], now: Date, slippingWeeks: Int) {
        let day: TimeInterval = 86_400
        var total: [String: Int] = [:]
        var recent30: [String: Int] = [:]
        var recent90: [String: Int] = [:]
        var lastSeen: [String: Date] = [:]
        var venueSessions: [String: (id: String?, name: String, sessions: Int, attendance: Int)] = [:]
        var months: [String: (sessions: Int, attendance: Int)] = [:]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for session in sessions {
            let age = now.timeIntervalSince(session.startedAt)
            for case let id? in session.attendeeIDs {
                total[id, default: 0] += 1
                if age <= 30 * day { recent30[id, default: 0] += 1 }
                if age <= 90 * day { recent90[id, default: 0] += 1 }
                if lastSeen[id].map({ $0 < session.startedAt }) ?? true { lastSeen[id] = session.startedAt }
            }
            let venueKey = session.venueID ?? "name:" + session.venueName
            var venue = venueSessions[venueKey] ?? (session.venueID, session.venueName, 0, 0)
            venue.sessions += 1
            venue.attendance += session.attendeeIDs.count
            venueSessions[venueKey] = venue
            let parts = calendar.dateComponents([.year, .month], from: session.startedAt)
            let month = String(format: "%04d-%02d", parts.year ?? 0, parts.month ?? 0)
            months[month, default: (0, 0)].sessions += 1
            months[month, default: (0, 0)].attendance += session.attendeeIDs.count
        }
        self.students = students.map { student in
            StudentFigures(
                id: student.id, name: student.name, active: student.active, last30Days: recent30[student.id] ?? 0,
                last90Days: recent90[student.id] ?? 0, total: total[student.id] ?? 0, lastSeen: lastSeen[student.id])
        }.sorted { ($0.total, $1.name) > ($1.total, $0.name) }
        self.venues = venueSessions.values.map {
            VenueFigures(id: $0.id, name: $0.name, sessions: $0.sessions, averageAttendance: Double($0.attendance) / Double($0.sessions))
        }.sorted { ($0.sessions, $1.name) > ($1.sessions, $0.name) }
        self.months = months.map { MonthFigures(month: $0.key, sessions: $0.value.sessions, attendance: $0.value.attendance) }
            .sorted { $0.month < $1.month }
        let threshold = TimeInterval(slippingWeeks) * 7 * day
        self.slipping = students.filter(\.active).compactMap { student -> Slipping? in
            if let seen = lastSeen[student.id] {
                let absent = now.timeIntervalSince(seen)
                guard absent >= threshold else { return nil }
                return Slipping(id: student.id, name: student.name, lastSeen: seen, weeksAbsent: Int(absent / (7 * day)))
            }
            guard let joined = Self.date(student.joinedOn), now.timeIntervalSince(joined) >= threshold else { return nil }
            return Slipping(id: student.id, name: student.name, lastSeen: nil, weeksAbsent: nil)
        }.sorted { ($0.lastSeen ?? .distantPast, $0.name) < ($1.lastSeen ?? .distantPast, $1.name) }
    }

    /// Who usually comes to a venue: the roster students of its last `recent` sessions, most often first.
    public static func regulars(sessionsNewestFirst: [[String?]], recent: Int = 10) -> [(id: String, times: Int)] {
        var counts: [String: Int] = [:]
        var firstSeen: [String: Int] = [:]
        for (index, attendees) in sessionsNewestFirst.prefix(recent).enumerated() {
            for case let id? in attendees {
                counts[id, default: 0] += 1
                if firstSeen[id] == nil { firstSeen[id] = index }
            }
        }
        return counts.map { ($0.key, $0.value) }.sorted { ($1.times, firstSeen[$0.id]!) < ($0.times, firstSeen[$1.id]!) }
    }

    static func date(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.date(from: text)
    }
}
