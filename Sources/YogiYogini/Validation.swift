import Edits
import Foundation

/// The rules every input passes before it is stored.
public enum YogaValidation {
    public static let maximumNameLength = 100
    public static let maximumNotesLength = 4000
    public static let maximumAddressLength = 300
    /// A class longer than this is a forgotten "End class", not a class.
    public static let maximumDuration: TimeInterval = 24 * 3600

    public static func name(_ text: String, what: String = "The name") throws(YogaError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalid("\(what) cannot be empty.") }
        guard trimmed.count <= maximumNameLength else { throw .invalid("\(what) is too long (at most \(maximumNameLength) characters).") }
        guard !trimmed.contains(where: { $0.isNewline }) else { throw .invalid("\(what) must be one line.") }
        return trimmed
    }

    /// Notes written over `base` (what the writing device last saw) may be as long as it (`fits`).
    public static func notes(_ text: String?, over base: String? = nil) throws(YogaError) -> String {
        let value = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard fits(value, limit: maximumNotesLength, over: base) else {
            throw .invalid("The notes are too long (at most \(maximumNotesLength) characters).")
        }
        return value
    }

    public static func address(_ text: String?) throws(YogaError) -> String {
        let value = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard value.count <= maximumAddressLength else {
            throw .invalid("The address is too long (at most \(maximumAddressLength) characters).")
        }
        return value
    }

    /// A calendar date written "YYYY-MM-DD" that exists.
    public static func date(_ text: String) throws(YogaError) -> String {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1900...2200).contains(year), (1...12).contains(month), (1...31).contains(day)
        else { throw .invalid("'\(text)' is not a date: write it as YYYY-MM-DD.") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            calendar.component(.day, from: date) == day
        else { throw .invalid("'\(text)' is not a date that exists.") }
        return text
    }

    /// A joining date: a date that is not after today anywhere on Earth (UTC+14), so nobody joins in the future.
    public static func joiningDate(_ text: String, now: Date) throws(YogaError) -> String {
        let joined = try date(text)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let latest = calendar.dateComponents([.year, .month, .day], from: now.addingTimeInterval(14 * 3600))
        let today = String(format: "%04d-%02d-%02d", latest.year ?? 0, latest.month ?? 0, latest.day ?? 0)
        guard joined <= today else { throw .invalid("The joining date \(text) is in the future: a student joins today or earlier.") }
        return joined
    }

    public static func coordinates(latitude: Double?, longitude: Double?) throws(YogaError) -> (Double, Double)? {
        switch (latitude, longitude) {
        case (nil, nil):
            return nil
        case let (latitude?, longitude?)
        where latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude):
            return (latitude, longitude)
        default:
            throw .invalid("A venue's position needs both latitude (-90 to 90) and longitude (-180 to 180), or neither.")
        }
    }

    public static func place(_ place: VenuePlace) throws(YogaError) -> VenuePlace {
        let position = try coordinates(latitude: place.latitude, longitude: place.longitude)
        return VenuePlace(
            name: try name(place.name, what: "The venue's name"), address: try address(place.address),
            latitude: position?.0, longitude: position?.1)
    }

    /// The attendees of a class sent after it ended that are no longer on the roster (`unknown`): each one deleted on
    /// another device meanwhile is kept by the name this device knew (`knownNames`, by id), as the attendance of a
    /// student deleted after a class is kept; an id with no name is refused, as before.
    public static func departed(_ unknown: [String], knownNames: [String: String]?) throws(YogaError) -> [String] {
        var names: [String] = []
        var nameless: [String] = []
        var seen: Set<String> = []
        for id in unknown where seen.insert(id).inserted {
            if let known = knownNames?[id] { names.append(try name(known, what: "An attendee's name")) } else { nameless.append(id) }
        }
        guard nameless.isEmpty else { throw .notOnRoster(nameless) }
        return names
    }

    /// A session's times as corrected by the instructor: the end after the start, at most a day long.
    public static func times(start: Date, end: Date) throws(YogaError) {
        guard end > start else { throw .invalid("A class must end after it starts.") }
        guard end.timeIntervalSince(start) <= maximumDuration else { throw .invalid("A class cannot last more than 24 hours.") }
    }

    /// When a class starts: now, or for a class checked in on a device without a connection and handed over once
    /// it has one, the time it started there: at most a day ago (the longest class), and not later than now (a device
    /// clock a few minutes ahead counts as now).
    public static func checkInTime(_ start: Date?, now: Date) throws(YogaError) -> Date {
        guard let start else { return now }
        guard start <= now.addingTimeInterval(300) else { throw .invalid("'started_at' is in the future.") }
        guard now.timeIntervalSince(start) <= maximumDuration else {
            throw .invalid("A class that started more than 24 hours ago cannot be checked in.")
        }
        return min(start, now)
    }

    public static func temperature(_ celsius: Double?) throws(YogaError) -> Double? {
        guard let celsius else { return nil }
        guard celsius.isFinite, (-90...60).contains(celsius) else { throw .invalid("The temperature must be from -90 to 60 °C.") }
        return celsius
    }
}
