/// A profile's collected cities and what Import and Save do to them — the original app's semantics:
/// - Import adds everything the import scene shows, with its favourite state, replacing a city already
///   collected (no duplicates); new cities go to the end of "my order".
/// - Save makes the collection exactly what the browse scene shows, in the order shown.
public struct CollectedCity: Sendable, Equatable {
    public var geonameid: Int
    public var favourite: Bool

    public init(geonameid: Int, favourite: Bool) {
        self.geonameid = geonameid
        self.favourite = favourite
    }
}

public enum CityCollection {
    public static let maximumSize = 10_000
    public static let maximumImport = CityCatalog.maximumLimit

    /// The collection (in my order) after importing `incoming`.
    public static func importing(_ incoming: [CollectedCity], into existing: [CollectedCity]) throws(CityError) -> [CollectedCity] {
        guard incoming.count <= maximumImport else {
            throw .invalidCollection("At most \(maximumImport) cities can be imported at once.")
        }
        var result = existing
        var position = Dictionary(existing.enumerated().map { ($1.geonameid, $0) }, uniquingKeysWith: { first, _ in first })
        for city in incoming {
            if let index = position[city.geonameid] {
                result[index] = city
            } else {
                position[city.geonameid] = result.count
                result.append(city)
            }
        }
        guard result.count <= maximumSize else {
            throw .invalidCollection("A collection holds at most \(maximumSize) cities: delete some first.")
        }
        return result
    }

    /// The collection after saving `shown`: exactly it. A city listed twice is a client's mistake.
    public static func saving(_ shown: [CollectedCity]) throws(CityError) -> [CollectedCity] {
        guard shown.count <= maximumSize else {
            throw .invalidCollection("A collection holds at most \(maximumSize) cities.")
        }
        var seen = Set<Int>()
        for city in shown where !seen.insert(city.geonameid).inserted {
            throw .invalidCollection("The city \(city.geonameid) is listed twice.")
        }
        return shown
    }
}
