import Foundation

/// Sunrise and sunset from coordinates alone (the sunrise equation as NOAA simplifies it; good to a minute
/// or two away from the poles). Refraction and the sun's radius are the usual -0.833°.
public struct SunTimes: Sendable, Equatable {
    public enum Polar: String, Sendable {
        /// The sun stays up all day.
        case day
        /// The sun stays down all day.
        case night
    }

    public let sunrise: Date?
    public let sunset: Date?
    public let polar: Polar?

    /// For the calendar day `date` falls on in `timeZone` (the city's own day).
    public static func forDay(containing date: Date, timeZone: TimeZone, latitude: Double, longitude: Double) -> SunTimes {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let noon = utc.date(from: DateComponents(year: parts.year, month: parts.month, day: parts.day, hour: 12))!
        return compute(noonUTC: noon, latitude: latitude, longitude: longitude)
    }

    static func compute(noonUTC: Date, latitude: Double, longitude: Double) -> SunTimes {
        let radians = Double.pi / 180
        let julianNoon = noonUTC.timeIntervalSince1970 / 86_400 + 2_440_587.5
        let day = (julianNoon - 2_451_545.0).rounded()
        let meanSolarNoon = day - longitude / 360
        let anomaly = (357.5291 + 0.98560028 * meanSolarNoon).truncatingRemainder(dividingBy: 360)
        let centre = 1.9148 * sin(anomaly * radians) + 0.0200 * sin(2 * anomaly * radians) + 0.0003 * sin(3 * anomaly * radians)
        let eclipticLongitude = (anomaly + centre + 180 + 102.9372).truncatingRemainder(dividingBy: 360)
        let transit = 2_451_545.0 + meanSolarNoon + 0.0053 * sin(anomaly * radians) - 0.0069 * sin(2 * eclipticLongitude * radians)
        let declination = asin(sin(eclipticLongitude * radians) * sin(23.4397 * radians))
        let cosHourAngle =
            (sin(-0.833 * radians) - sin(latitude * radians) * sin(declination))
            / (cos(latitude * radians) * cos(declination))
        if cosHourAngle > 1 { return SunTimes(sunrise: nil, sunset: nil, polar: .night) }
        if cosHourAngle < -1 { return SunTimes(sunrise: nil, sunset: nil, polar: .day) }
        let hourAngle = acos(cosHourAngle) / radians
        func date(_ julian: Double) -> Date { Date(timeIntervalSince1970: (julian - 2_440_587.5) * 86_400) }
        return SunTimes(sunrise: date(transit - hourAngle / 360), sunset: date(transit + hourAngle / 360), polar: nil)
    }
}
