/// "Surprise Me": a random country, a random point in its bounding box, the cities around it.
///
/// As in the original app, a person's last 10 searches are remembered and results are kept fresh: cities
/// those searches already showed are left out, and a try that finds nothing new (often a point at sea or
/// in a desert) picks another country, up to 4 tries in all.
public struct SurpriseRules: Sendable {
    public var maximumTries = 4
    public var historyLength = 10
    public var radiusKilometres = 10.0
    public var limit = 30

    public init() {}

    public struct Outcome: Sendable, Equatable {
        public let countryCode: String?
        public let center: (latitude: Double, longitude: Double)?
        public let cities: [NearbyCity]
        public let tries: Int

        public var found: Bool { !cities.isEmpty }

        public static func == (left: Outcome, right: Outcome) -> Bool {
            left.countryCode == right.countryCode && left.center?.latitude == right.center?.latitude
                && left.center?.longitude == right.center?.longitude && left.cities == right.cities && left.tries == right.tries
        }
    }

    /// `history` holds the ids each of the person's recent searches showed, newest first.
    public func surprise(
        in catalog: CityCatalog, history: [[Int]], using generator: inout some RandomNumberGenerator
    ) throws(CityError) -> Outcome {
        let seen = Set(history.prefix(historyLength).joined())
        var candidates = catalog.countriesWithCities
        var tries = 0
        while tries < maximumTries, !candidates.isEmpty {
            tries += 1
            let code = candidates.remove(at: Int.random(in: candidates.indices, using: &generator))
            guard let box = catalog.boundingBoxes[code] else { continue }
            let point = box.randomPoint(using: &generator)
            let fresh = try catalog.nearby(
                latitude: point.latitude, longitude: point.longitude, radiusKilometres: radiusKilometres, limit: CityCatalog.maximumLimit
            ).filter { !seen.contains($0.city.geonameid) }
            if !fresh.isEmpty {
                return Outcome(countryCode: code, center: point, cities: Array(fresh.prefix(limit)), tries: tries)
            }
        }
        return Outcome(countryCode: nil, center: nil, cities: [], tries: tries)
    }

    /// The history after a search that showed `ids`: newest first, at most `historyLength` searches.
    public func history(_ history: [[Int]], adding ids: [Int]) -> [[Int]] {
        Array(([ids] + history).prefix(historyLength))
    }
}
