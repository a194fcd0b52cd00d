import Foundation
import Geography

/// "Surprise Me": a random country, a random place where people live in it, the cities around it.
///
/// As in the original app, a person's last 10 searches are remembered and results are kept fresh: cities
/// those searches already showed are left out, and a try that finds nothing new picks another country, up to
/// 4 tries in all. Unlike the original, the point is not drawn from the country's bounding box (mostly sea or
/// desert, and often a neighbour's land) but near one of its own towns, so a spin almost always finds places,
/// and the title names the country most of the shown cities are in.
public struct SurpriseRules: Sendable {
    public var maximumTries = 4
    public var historyLength = 10
    public var radiusKilometres = 10.0
    public var limit = 30

    public init() {}

    public struct Outcome: Sendable, Equatable {
        /// The country most of the cities are in (the one drawn, unless the search spilled over a border).
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
        var weights = candidates.map { Self.countryWeight(cityCount: catalog.cityCount(in: $0)) }
        var tries = 0
        while tries < maximumTries, !candidates.isEmpty {
            tries += 1
            let pick = Self.weightedIndex(weights, using: &generator)
            let code = candidates.remove(at: pick)
            weights.remove(at: pick)
            // The liveliest of a few random towns: a lone hamlet shows one dot, a town among villages a handful.
            var best: (point: (latitude: Double, longitude: Double), cities: [NearbyCity])?
            for _ in 0..<Self.anchorsPerTry {
                guard let anchor = Self.freshCity(in: catalog.cities(in: code), avoiding: seen, using: &generator) else { break }
                let point = Self.point(near: anchor, within: radiusKilometres / 4, using: &generator)
                let fresh = try catalog.nearby(
                    latitude: point.latitude, longitude: point.longitude, radiusKilometres: radiusKilometres,
                    limit: CityCatalog.maximumLimit
                ).filter { !seen.contains($0.city.geonameid) }
                if fresh.count > best?.cities.count ?? 0 { best = (point, fresh) }
            }
            if let (point, fresh) = best {
                let shown = Array(fresh.prefix(limit))
                return Outcome(countryCode: Self.majorityCountry(shown, preferring: code), center: point, cities: shown, tries: tries)
            }
        }
        return Outcome(countryCode: nil, center: nil, cities: [], tries: tries)
    }

    /// The history after a search that showed `ids`: newest first, at most `historyLength` searches.
    public func history(_ history: [[Int]], adding ids: [Int]) -> [[Int]] {
        Array(([ids] + history).prefix(historyLength))
    }

    /// Towns tried in the drawn country before the liveliest is shown.
    static let anchorsPerTry = 3

    /// How likely a country is drawn: grows with its number of towns, but only as a logarithm, so the United
    /// States (tens of thousands of towns) come up about fifteen times as often as the Vatican, not 30,000 times.
    static func countryWeight(cityCount: Int) -> Double {
        log2(1 + Double(cityCount))
    }

    static func weightedIndex(_ weights: [Double], using generator: inout some RandomNumberGenerator) -> Int {
        let total = weights.reduce(0, +)
        guard total > 0 else { return Int.random(in: weights.indices, using: &generator) }
        var target = Double.random(in: 0..<total, using: &generator)
        for (index, weight) in weights.enumerated() {
            if target < weight { return index }
            target -= weight
        }
        return weights.count - 1
    }

    /// A random town of the country that no recent search showed (a few draws, then any unseen one).
    static func freshCity(in cities: some Collection<City>, avoiding seen: Set<Int>, using generator: inout some RandomNumberGenerator)
        -> City?
    {
        guard !cities.isEmpty else { return nil }
        for _ in 0..<8 {
            let offset = Int.random(in: 0..<cities.count, using: &generator)
            let city = cities[cities.index(cities.startIndex, offsetBy: offset)]
            if !seen.contains(city.geonameid) { return city }
        }
        return cities.first { !seen.contains($0.geonameid) }
    }

    /// A point a random distance (uniform over the disc) and bearing from the city, so the town is not always
    /// at the centre of the search.
    static func point(near city: City, within kilometres: Double, using generator: inout some RandomNumberGenerator) -> (
        latitude: Double, longitude: Double
    ) {
        let distance = kilometres * Double.random(in: 0...1, using: &generator).squareRoot()
        let bearing = Double.random(in: 0..<(2 * Double.pi), using: &generator)
        let latitude = min(90, max(-90, city.latitude + distance * cos(bearing) / 111.32))
        let shrink = max(cos(city.latitude * Double.pi / 180), 0.01)
        let longitude = GeoMath.normalizedLongitude(city.longitude + distance * sin(bearing) / (111.32 * shrink))
        return (latitude, longitude)
    }

    /// The country most of the shown cities are in; a tie goes to the country drawn.
    static func majorityCountry(_ cities: [NearbyCity], preferring drawn: String) -> String {
        var counts: [String: Int] = [:]
        for city in cities { counts[city.city.countryCode, default: 0] += 1 }
        let best = counts.values.max() ?? 0
        if counts[drawn] == best { return drawn }
        return counts.filter { $0.value == best }.keys.sorted().first ?? drawn
    }
}
