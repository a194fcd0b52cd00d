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

    /// The collection after saving `shown` from a scene opened on `base` (the collection as it was then), when
    /// `existing` (the collection now) changed meanwhile on another device: what the scene changed wins, what it did
    /// not touch follows `existing`. A city added there is kept (after the scene's, in its order), one deleted there
    /// stays deleted unless its star was changed here, and a star set there stays unless this scene changed it.
    public static func saving(_ shown: [CollectedCity], base: [CollectedCity], existing: [CollectedCity]) throws(CityError)
        -> [CollectedCity]
    {
        _ = try saving(shown)
        let before = Dictionary(base.map { ($0.geonameid, $0.favourite) }, uniquingKeysWith: { first, _ in first })
        let now = Dictionary(existing.map { ($0.geonameid, $0.favourite) }, uniquingKeysWith: { first, _ in first })
        var result: [CollectedCity] = []
        for city in shown {
            guard let was = before[city.geonameid] else {
                result.append(city)  // added here
                continue
            }
            let starredHere = city.favourite != was
            if let there = now[city.geonameid] {
                result.append(starredHere ? city : CollectedCity(geonameid: city.geonameid, favourite: there))
            } else if starredHere {
                result.append(city)  // deleted there, but changed here: the change is kept
            }
        }
        let listed = Set(shown.map(\.geonameid))
        result += existing.filter { before[$0.geonameid] == nil && !listed.contains($0.geonameid) }  // added there
        guard result.count <= maximumSize else {
            throw .invalidCollection("A collection holds at most \(maximumSize) cities.")
        }
        return result
    }
}
