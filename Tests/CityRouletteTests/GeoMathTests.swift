import CityRoulette
import Geography
import Testing

@Suite struct GeoMathTests {
    @Test func measuresKnownDistances() {
        // Florence to Rome is about 232 km as the crow flies; a degree of latitude about 111.2 km.
        let rome = GeoMath.distanceKilometres(latitude1: 43.77925, longitude1: 11.24626, latitude2: 41.89193, longitude2: 12.51133)
        #expect(abs(rome - 232) < 3)
        #expect(abs(GeoMath.distanceKilometres(latitude1: 0, longitude1: 0, latitude2: 1, longitude2: 0) - 111.19) < 0.1)
        // Across the antimeridian is short, not around the world.
        #expect(GeoMath.distanceKilometres(latitude1: 0, longitude1: 179.9, latitude2: 0, longitude2: -179.9) < 23)
    }

    @Test func boxesPointsTheShortWayRoundTheWorld() throws {
        let fiji = try #require(BoundingBox.enclosing([(-18.1, 178.4), (-16.4, 179.4), (-17.3, -178.9)]))
        #expect(fiji.west == 178.4 && fiji.east == -178.9)
        #expect(abs(fiji.longitudeSpan - 2.7) < 1e-9)
        let italy = try #require(BoundingBox.enclosing([(43.8, 11.2), (37.5, 15.1), (46.5, 6.6)]))
        #expect(italy == BoundingBox(north: 46.5, south: 37.5, west: 6.6, east: 15.1))
        #expect(BoundingBox.enclosing([]) == nil)
    }

    @Test func randomPointsFillBothSpansOfTheBox() {
        // The original app drew the west edge from the latitude span; here both spans are covered, and
        // a box across the antimeridian stays on its side of the world.
        var generator = SeededGenerator(seed: 7)
        let box = BoundingBox(north: 10, south: 0, west: 170, east: -170)
        var longitudes: [Double] = []
        var latitudes: [Double] = []
        for _ in 0..<2000 {
            let point = box.randomPoint(using: &generator)
            latitudes.append(point.latitude)
            longitudes.append(point.longitude)
        }
        #expect(latitudes.allSatisfy { (0...10).contains($0) })
        #expect(longitudes.allSatisfy { $0 >= 170 || $0 <= -170 })
        #expect(longitudes.contains { $0 > 179 } && longitudes.contains { $0 < -179 })
        #expect(longitudes.contains { $0 < 171 } && longitudes.contains { $0 > -171 && $0 < 0 })
        #expect(latitudes.contains { $0 < 0.5 } && latitudes.contains { $0 > 9.5 })
    }
}
