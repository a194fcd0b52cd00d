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

/// One field of an edit made in a form opened on `base`, over the record as stored now (`current`): a field the form
/// left as it was keeps what another device saved meanwhile, a field it changed takes the edit's value. So two
/// devices editing different fields of one record (the notes here, the type there) both keep their change.
public func edited<Value: Equatable>(_ edit: Value, base: Value, current: Value) -> Value {
    edit == base ? current : edit
}

extension Student {
    /// An edit of a student made in a form opened on `base`, over the student as stored now, field by field.
    public static func edited(_ edit: Student, base: Student, current: Student) -> Student {
        func field<Value: Equatable>(_ value: KeyPath<Student, Value>) -> Value {
            YogiYogini.edited(edit[keyPath: value], base: base[keyPath: value], current: current[keyPath: value])
        }
        return Student(
            id: current.id, name: field(\.name), joinedOn: field(\.joinedOn), active: field(\.active), typeID: field(\.typeID),
            notes: field(\.notes))
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
