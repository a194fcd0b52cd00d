import Foundation

/// Great-circle arithmetic on a spherical Earth: good to about 0.5 %, plenty for "cities within 10 km".
public enum GeoMath {
    public static let earthRadiusKilometres = 6371.0088
    public static let kilometresPerDegreeOfLatitude = earthRadiusKilometres * .pi / 180

    /// Haversine distance between two points in degrees.
    public static func distanceKilometres(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let φ1 = latitude1 * .pi / 180, φ2 = latitude2 * .pi / 180
        let dφ = φ2 - φ1
        let dλ = (longitude2 - longitude1) * .pi / 180
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * earthRadiusKilometres * asin(min(1, sqrt(a)))
    }

    /// Wraps a longitude into -180..<180, leaving one already there untouched (no rounding).
    public static func normalizedLongitude(_ longitude: Double) -> Double {
        if (-180..<180).contains(longitude) { return longitude }
        var value = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value - 180
    }

    public static func isValid(latitude: Double, longitude: Double) -> Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}

/// A latitude/longitude box. `west` may be greater than `east` when the box crosses the antimeridian
/// (Fiji, Kiribati, Russia's far east): its longitudes then run from `west` up to 180 and on from -180 to `east`.
public struct BoundingBox: Sendable, Equatable {
    public var north: Double
    public var south: Double
    public var west: Double
    public var east: Double

    public init(north: Double, south: Double, west: Double, east: Double) {
        self.north = north
        self.south = south
        self.west = west
        self.east = east
    }

    /// Width in degrees of longitude, counting across the antimeridian when the box crosses it.
    public var longitudeSpan: Double { east >= west ? east - west : east + 360 - west }
    public var latitudeSpan: Double { north - south }

    /// The smallest box around the points: the latitude span is plain; the longitude span is the circle
    /// minus its largest empty gap, so a country on both sides of the antimeridian gets a narrow box
    /// instead of one around the whole world.
    public static func enclosing(_ points: [(latitude: Double, longitude: Double)]) -> BoundingBox? {
        guard !points.isEmpty else { return nil }
        let latitudes = points.map(\.latitude)
        let longitudes = points.map(\.longitude).sorted()
        // The widest gap between neighbours going east, the wrap from the last back to the first included;
        // the box starts where that gap ends.
        var west = longitudes[0], east = longitudes[longitudes.count - 1], widest = longitudes[0] + 360 - east
        for index in 1..<longitudes.count where longitudes[index] - longitudes[index - 1] > widest {
            widest = longitudes[index] - longitudes[index - 1]
            west = longitudes[index]
            east = longitudes[index - 1]
        }
        return BoundingBox(north: latitudes.max()!, south: latitudes.min()!, west: west, east: east)
    }

    /// A uniformly random point of the box: latitude across north–south, longitude across west–east.
    /// (The original app computed the west edge from the latitude span; both spans are used right here.)
    public func randomPoint(using generator: inout some RandomNumberGenerator) -> (latitude: Double, longitude: Double) {
        let latitude = latitudeSpan > 0 ? Double.random(in: south...north, using: &generator) : south
        let offset = longitudeSpan > 0 ? Double.random(in: 0...longitudeSpan, using: &generator) : 0
        return (latitude, GeoMath.normalizedLongitude(west + offset))
    }
}
