import Geography

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
        var west = longitudes[0]
        var east = longitudes[longitudes.count - 1]
        var widest = longitudes[0] + 360 - east
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
