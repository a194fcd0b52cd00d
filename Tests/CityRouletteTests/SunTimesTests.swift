import CityRoulette
import Foundation
import Testing

@Suite struct SunTimesTests {
    func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func matchesPublishedTimesForLondonAtMidsummer() throws {
        // Published for London on 21 June 2024: sunrise 04:43 BST (03:43 UTC), sunset 21:21 BST (20:21 UTC).
        let sun = SunTimes.forDay(
            containing: date("2024-06-21T12:00:00Z"), timeZone: TimeZone(identifier: "Europe/London")!,
            latitude: 51.5074, longitude: -0.1278)
        let sunrise = try #require(sun.sunrise)
        let sunset = try #require(sun.sunset)
        #expect(abs(sunrise.timeIntervalSince(date("2024-06-21T03:43:00Z"))) < 180)
        #expect(abs(sunset.timeIntervalSince(date("2024-06-21T20:21:00Z"))) < 180)
        #expect(sun.polar == nil)
    }

    @Test func usesTheCitysOwnCalendarDay() throws {
        // 23:30 UTC on 1 March is already 2 March in Auckland: its sunrise is on the morning of 2 March local time.
        let sun = SunTimes.forDay(
            containing: date("2024-03-01T23:30:00Z"), timeZone: TimeZone(identifier: "Pacific/Auckland")!,
            latitude: -36.85, longitude: 174.76)
        let sunrise = try #require(sun.sunrise)
        // About 07:10 NZDT on 2 March = 18:10 UTC on 1 March.
        #expect(abs(sunrise.timeIntervalSince(date("2024-03-01T18:10:00Z"))) < 600)
    }

    @Test func knowsPolarDayAndNight() {
        let tromsø = (latitude: 69.65, longitude: 18.96)
        let zone = TimeZone(identifier: "Europe/Oslo")!
        #expect(
            SunTimes.forDay(
                containing: date("2024-06-21T12:00:00Z"), timeZone: zone, latitude: tromsø.latitude, longitude: tromsø.longitude
            ).polar == .day)
        let winter = SunTimes.forDay(
            containing: date("2024-12-21T12:00:00Z"), timeZone: zone, latitude: tromsø.latitude, longitude: tromsø.longitude)
        #expect(winter.polar == .night && winter.sunrise == nil && winter.sunset == nil)
    }
}
