import Foundation

/// Great-circle arithmetic on a spherical Earth: good to about 0.5 %, plenty for "cities within 10 km".
public enum GeoMath {
    public static let earthRadiusKilometres = 6371.0088
    public static let kilometresPerDegreeOfLatitude = earthRadiusKilometres * .pi / 180

    /// Haversine distance between two points in degrees.
    public static func distanceKilometres(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let φ1 = latitude1 * .pi / 180
        let φ2 = latitude2 * .pi / 180
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
