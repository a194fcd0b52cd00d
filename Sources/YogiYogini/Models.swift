import Edits
import Foundation

/// A student on the instructor's roster. How often they came is derived from the sessions, never stored.
public struct Student: Sendable, Equatable {
    public var id: String
    public var name: String
    /// "YYYY-MM-DD".
    public var joinedOn: String
    public var active: Bool
    public var typeID: String?
    public var notes: String

    public init(id: String, name: String, joinedOn: String, active: Bool, typeID: String?, notes: String) {
        self.id = id
        self.name = name
        self.joinedOn = joinedOn
        self.active = active
        self.typeID = typeID
        self.notes = notes
    }
}

extension Student {
    /// An edit of a student made in a form opened on `base`, over the student as stored now, field by field; notes
    /// changed on both sides keep both (`editedText`).
    public static func edited(_ edit: Student, base: Student, current: Student) -> Student {
        func field<Value: Equatable>(_ value: KeyPath<Student, Value>) -> Value {
            Edits.edited(edit[keyPath: value], base: base[keyPath: value], current: current[keyPath: value])
        }
        return Student(
            id: current.id, name: field(\.name), joinedOn: field(\.joinedOn), active: field(\.active), typeID: field(\.typeID),
            notes: editedText(edit.notes, base: base.notes, current: current.notes, joinedBy: "\n"))
    }
}

/// What a correction of a past session states: its times, the roster students who attended, notes and temperature.
public struct SessionCorrection: Sendable, Equatable {
    public var startedAt: Date
    public var endedAt: Date
    /// Roster students' ids, in the order given.
    public var attendeeIDs: [String]
    public var notes: String
    public var temperatureCelsius: Double?

    public init(startedAt: Date, endedAt: Date, attendeeIDs: [String], notes: String, temperatureCelsius: Double?) {
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.attendeeIDs = attendeeIDs
        self.notes = notes
        self.temperatureCelsius = temperatureCelsius
    }

    /// A correction made in a form opened on `base`, over the session as stored now, field by field: the students
    /// it added or took off are added or taken off, the others stay as stored; notes changed on both sides keep both.
    /// Times that would end before they start, taken one from each side, are both the edit's.
    public static func edited(_ edit: Self, base: Self, current: Self) -> Self {
        let added = edit.attendeeIDs.filter { !base.attendeeIDs.contains($0) }
        let removed = Set(base.attendeeIDs.filter { !edit.attendeeIDs.contains($0) })
        let stayed = current.attendeeIDs.filter { !removed.contains($0) }
        var merged = Self(
            startedAt: Edits.edited(edit.startedAt, base: base.startedAt, current: current.startedAt),
            endedAt: Edits.edited(edit.endedAt, base: base.endedAt, current: current.endedAt),
            attendeeIDs: stayed + added.filter { !stayed.contains($0) },
            notes: editedText(edit.notes, base: base.notes, current: current.notes, joinedBy: "\n"),
            temperatureCelsius: Edits.edited(edit.temperatureCelsius, base: base.temperatureCelsius, current: current.temperatureCelsius))
        if merged.endedAt <= merged.startedAt || merged.endedAt.timeIntervalSince(merged.startedAt) > YogaValidation.maximumDuration {
            (merged.startedAt, merged.endedAt) = (edit.startedAt, edit.endedAt)
        }
        return merged
    }
}

/// A roster name's place in a list: case, accents and width aside, numbers by their value ("Student 9" before
/// "Student 10"), as the page's `Intl.Collator` orders names. Folded once per name and compared here, by code point:
/// Foundation on Linux builds a locale for every localized comparison, which was most of a roster read's sort.
public struct NameOrder: Comparable, Sendable {
    let scalars: [UInt32]

    public init(_ name: String) {
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            scalars = name.utf8.map { UInt32($0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0) }
        } else {
            let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            scalars = folded.unicodeScalars.map(\.value)
        }
    }

    public static func < (lhs: NameOrder, rhs: NameOrder) -> Bool { order(lhs.scalars, rhs.scalars) < 0 }

    public static func == (lhs: NameOrder, rhs: NameOrder) -> Bool { order(lhs.scalars, rhs.scalars) == 0 }

    /// Negative, zero or positive as `a` comes before, with or after `b`; a run of digits counts as its number.
    static func order(_ a: [UInt32], _ b: [UInt32]) -> Int {
        func isDigit(_ scalar: UInt32) -> Bool { scalar >= 0x30 && scalar <= 0x39 }
        func number(in scalars: [UInt32], from start: Int) -> (digits: Range<Int>, end: Int) {
            var first = start
            while first < scalars.count, scalars[first] == 0x30 { first += 1 }
            var end = first
            while end < scalars.count, isDigit(scalars[end]) { end += 1 }
            return (first..<end, end)
        }
        var (i, j) = (0, 0)
        while i < a.count, j < b.count {
            if isDigit(a[i]), isDigit(b[j]) {
                let (x, y) = (number(in: a, from: i), number(in: b, from: j))
                if x.digits.count != y.digits.count { return x.digits.count - y.digits.count }
                for (p, q) in zip(x.digits, y.digits) where a[p] != b[q] { return a[p] < b[q] ? -1 : 1 }
                (i, j) = (x.end, y.end)
            } else {
                if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
                (i, j) = (i + 1, j + 1)
            }
        }
        return (a.count - i) - (b.count - j)
    }
}

public struct StudentType: Sendable, Equatable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// Every profile starts with these; the instructor can rename, add and delete.
    public static let defaults = ["drop-in", "member", "trial"]
}

/// Where a class happens. Sessions keep their own copy of the name and address, so editing or deleting a
/// venue never rewrites history.
public struct VenuePlace: Sendable, Equatable, Codable {
    public var name: String
    public var address: String
    public var latitude: Double?
    public var longitude: Double?

    public init(name: String, address: String, latitude: Double?, longitude: Double?) {
        self.name = name
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A venue a provider found near a point.
public struct VenueCandidate: Sendable, Equatable {
    public var place: VenuePlace
    /// "openstreetmap" or "foursquare".
    public var source: String
    public var externalID: String
    public var distanceMetres: Double?

    public init(place: VenuePlace, source: String, externalID: String, distanceMetres: Double?) {
        self.place = place
        self.source = source
        self.externalID = externalID
        self.distanceMetres = distanceMetres
    }
}

/// Finds yoga and fitness places near a point (Overpass or Foursquare in Providers).
public protocol VenueSearch: Sendable {
    var name: String { get }
    /// Throws `VenuesUnavailable` when the service is slow, down or answers nonsense.
    func venues(latitude: Double, longitude: Double, radiusMetres: Int, query: String?) async throws(VenuesUnavailable) -> [VenueCandidate]
}

public struct VenuesUnavailable: Error, Sendable, Equatable {
    public let reason: String
    public init(reason: String) { self.reason = reason }
}

/// One attendee of a session: a roster student, or a former one who has since been deleted (id nil),
/// kept by name so the head count stays true.
public struct Attendee: Sendable, Equatable, Codable {
    public var studentID: String?
    public var name: String

    public init(studentID: String?, name: String) {
        self.studentID = studentID
        self.name = name
    }
}

public enum YogaError: Error, Equatable, Sendable {
    case invalid(String)
    case studentNotFound
    case studentTypeNotFound
    /// Another of the instructor's types already has this name (in any case).
    case studentTypeExists(String)
    case venueNotFound
    case sessionNotFound
    case noClass
    case classInSession
    case notOnRoster([String])
    case studentHasSessions(Int)
    case venueWithoutCoordinates
}

/// The instructor's preferences.
public struct YogaSettings: Sendable, Equatable {
    public enum TemperatureUnit: String, Sendable, CaseIterable {
        case celsius, fahrenheit
    }

    public var temperatureUnit: TemperatureUnit
    /// An active student not seen for this many weeks is "slipping away".
    public var slippingWeeks: Int

    public init(temperatureUnit: TemperatureUnit, slippingWeeks: Int) {
        self.temperatureUnit = temperatureUnit
        self.slippingWeeks = slippingWeeks
    }

    public static let `default` = YogaSettings(temperatureUnit: .celsius, slippingWeeks: 3)
    public static let slippingWeeksRange = 1...52
}
