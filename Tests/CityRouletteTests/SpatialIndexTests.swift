import CityRoulette
import Geography
import Testing

/// The grid index must answer exactly what measuring every point would.
@Suite struct SpatialIndexTests {
    func bruteForce(_ latitudes: [Double], _ longitudes: [Double], latitude: Double, longitude: Double, radius: Double, limit: Int) -> [Int]
    {
        var found: [(index: Int, distance: Double)] = []
        for index in latitudes.indices {
            let distance = GeoMath.distanceKilometres(
                latitude1: latitude, longitude1: longitude, latitude2: latitudes[index], longitude2: longitudes[index])
            if distance <= radius { found.append((index, distance)) }
        }
        found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.index < $1.index }
        return found.prefix(limit).map(\.index)
    }

    @Test func agreesWithABruteForceScanOnRandomPoints() {
        var generator = SeededGenerator(seed: 42)
        // Clustered points (like cities) plus some near the poles and the antimeridian.
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        for _ in 0..<200 {
            let centreLatitude = Double.random(in: -89...89, using: &generator)
            let centreLongitude = Double.random(in: -180..<180, using: &generator)
            for _ in 0..<20 {
                latitudes.append(max(-90, min(90, centreLatitude + Double.random(in: -0.8...0.8, using: &generator))))
                longitudes.append(GeoMath.normalizedLongitude(centreLongitude + Double.random(in: -0.8...0.8, using: &generator)))
            }
        }
        for latitude in [89.95, -89.95, 0] {
            for longitude in [-179.99, 179.99, 0] {
                latitudes.append(latitude)
                longitudes.append(longitude)
            }
        }
        let index = SpatialIndex(latitudes: latitudes, longitudes: longitudes)
        var queries: [(Double, Double)] = (0..<200).map { _ in
            let source = Int.random(in: latitudes.indices, using: &generator)
            return (
                latitudes[source] + Double.random(in: -0.3...0.3, using: &generator),
                GeoMath.normalizedLongitude(longitudes[source] + Double.random(in: -0.3...0.3, using: &generator))
            )
        }
        queries += [(89.99, 10), (-89.99, -170), (0, 179.999), (0, -179.999), (60, 180)]
        for (latitude, longitude) in queries {
            let latitude = max(-90, min(90, latitude))
            for radius in [1.0, 10, 100] {
                let expected = bruteForce(latitudes, longitudes, latitude: latitude, longitude: longitude, radius: radius, limit: 30)
                let found = index.nearby(latitude: latitude, longitude: longitude, radiusKilometres: radius, limit: 30).map(\.index)
                #expect(found == expected, "at \(latitude), \(longitude) within \(radius) km")
            }
        }
    }

    @Test func nearestAgreesWithABruteForceScanNearAndFar() {
        var generator = SeededGenerator(seed: 7)
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        for _ in 0..<40 {
            let centreLatitude = Double.random(in: -70...70, using: &generator)
            let centreLongitude = Double.random(in: -180..<180, using: &generator)
            for _ in 0..<10 {
                latitudes.append(centreLatitude + Double.random(in: -0.5...0.5, using: &generator))
                longitudes.append(GeoMath.normalizedLongitude(centreLongitude + Double.random(in: -0.5...0.5, using: &generator)))
            }
        }
        let index = SpatialIndex(latitudes: latitudes, longitudes: longitudes)
        // Anywhere on the globe: most of these are far from every point (mid-ocean, the poles).
        var queries: [(Double, Double)] = (0..<300).map { _ in
            (Double.random(in: -90...90, using: &generator), Double.random(in: -180..<180, using: &generator))
        }
        queries += [(90, 0), (-90, 0), (0, 180), (0, -180)]
        for (latitude, longitude) in queries {
            let expected = latitudes.indices.min { a, b in
                let da = GeoMath.distanceKilometres(
                    latitude1: latitude, longitude1: longitude, latitude2: latitudes[a], longitude2: longitudes[a])
                let db = GeoMath.distanceKilometres(
                    latitude1: latitude, longitude1: longitude, latitude2: latitudes[b], longitude2: longitudes[b])
                return da != db ? da < db : a < b
            }
            #expect(index.nearest(latitude: latitude, longitude: longitude)?.index == expected, "at \(latitude), \(longitude)")
        }
        #expect(SpatialIndex(latitudes: [], longitudes: []).nearest(latitude: 0, longitude: 0) == nil)
        #expect(SpatialIndex(latitudes: [-89.9], longitudes: [179.9]).nearest(latitude: 89.9, longitude: 0)?.index == 0)
    }

    @Test func findsNothingInAnEmptyIndexOrWithNoLimit() {
        #expect(SpatialIndex(latitudes: [], longitudes: []).nearby(latitude: 0, longitude: 0, radiusKilometres: 10, limit: 5).isEmpty)
        #expect(SpatialIndex(latitudes: [0], longitudes: [0]).nearby(latitude: 0, longitude: 0, radiusKilometres: 10, limit: 0).isEmpty)
    }
}
