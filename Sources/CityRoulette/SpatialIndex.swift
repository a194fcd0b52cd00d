import Foundation
import Geography

/// Finds the cities near a point without scanning them all: a grid of one-degree cells over the globe,
/// each cell listing the cities in it (compressed-row form, built in one counting pass).
/// A query visits only the cells its radius can reach, then measures real distances.
public struct SpatialIndex: Sendable {
    static let rows = 180
    static let columns = 360

    private let latitudes: [Double]
    private let longitudes: [Double]
    /// `members[cellStart[c]..<cellStart[c + 1]]` are the indices of the points in cell c.
    private let cellStart: [Int32]
    private let members: [Int32]

    /// `points` are indexed by their position in the array; queries answer those positions.
    public init(latitudes: [Double], longitudes: [Double]) {
        precondition(latitudes.count == longitudes.count)
        self.latitudes = latitudes
        self.longitudes = longitudes
        let cellCount = Self.rows * Self.columns
        var cells = [Int32](repeating: 0, count: latitudes.count)
        var counts = [Int32](repeating: 0, count: cellCount + 1)
        for index in latitudes.indices {
            let cell = Self.cell(row: Self.row(latitudes[index]), column: Self.column(longitudes[index]))
            cells[index] = Int32(cell)
            counts[cell + 1] += 1
        }
        for cell in 0..<cellCount { counts[cell + 1] += counts[cell] }
        var next = counts
        var members = [Int32](repeating: 0, count: latitudes.count)
        for index in latitudes.indices {
            let cell = Int(cells[index])
            members[Int(next[cell])] = Int32(index)
            next[cell] += 1
        }
        self.cellStart = counts
        self.members = members
    }

    /// Positions of the points within `radiusKilometres` of the centre, nearest first, at most `limit`.
    public func nearby(latitude: Double, longitude: Double, radiusKilometres: Double, limit: Int) -> [(index: Int, distance: Double)] {
        guard limit > 0, radiusKilometres >= 0 else { return [] }
        var found: [(index: Int, distance: Double)] = []
        forEachCandidate(latitude: latitude, longitude: longitude, radiusKilometres: radiusKilometres) { index in
            let distance = GeoMath.distanceKilometres(
                latitude1: latitude, longitude1: longitude, latitude2: latitudes[index], longitude2: longitudes[index]
            )
            if distance <= radiusKilometres { found.append((index, distance)) }
        }
        found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.index < $1.index }
        return Array(found.prefix(limit))
    }

    /// The point nearest to the centre however far it is (nil only for an empty index). Searches growing
    /// radii, so a point among cities costs one small query and one in mid-ocean a few larger ones.
    public func nearest(latitude: Double, longitude: Double) -> (index: Int, distance: Double)? {
        guard !latitudes.isEmpty else { return nil }
        // Half the circumference: every point on the sphere is within it.
        let farthest = GeoMath.earthRadiusKilometres * .pi + 1
        var radius = 16.0
        while true {
            var best: (index: Int, distance: Double)?
            forEachCandidate(latitude: latitude, longitude: longitude, radiusKilometres: radius) { index in
                let distance = GeoMath.distanceKilometres(
                    latitude1: latitude, longitude1: longitude, latitude2: latitudes[index], longitude2: longitudes[index]
                )
                guard distance <= radius else { return }
                if let current = best, current.distance < distance || (current.distance == distance && current.index < index) { return }
                best = (index, distance)
            }
            if best != nil || radius >= farthest { return best }
            radius = min(radius * 4, farthest)
        }
    }

    private func forEachCandidate(latitude: Double, longitude: Double, radiusKilometres: Double, _ body: (Int) -> Void) {
        let latitudeReach = radiusKilometres / GeoMath.kilometresPerDegreeOfLatitude
        let south = max(-90, latitude - latitudeReach), north = min(90, latitude + latitudeReach)
        // Longitude degrees shrink towards the poles: use the band's widest reach, or every column near a pole.
        let widestLatitude = max(abs(south), abs(north))
        let cosine = cos(widestLatitude * .pi / 180)
        let longitudeReach = cosine > 1e-6 ? latitudeReach / cosine : 360
        let columns: [Int]
        let first = Int(floor(longitude - longitudeReach)), last = Int(floor(longitude + longitudeReach))
        if longitudeReach >= 180 || last - first + 1 >= Self.columns {
            columns = Array(0..<Self.columns)
        } else {
            columns = (first...last).map { (($0 + 180) % 360 + 360) % 360 }
        }
        for row in Self.row(south)...Self.row(north) {
            for column in columns {
                let cell = Self.cell(row: row, column: column)
                for slot in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                    body(Int(members[slot]))
                }
            }
        }
    }

    static func row(_ latitude: Double) -> Int { min(rows - 1, max(0, Int(floor(latitude + 90)))) }
    static func column(_ longitude: Double) -> Int { min(columns - 1, max(0, Int(floor(GeoMath.normalizedLongitude(longitude) + 180)))) }
    static func cell(row: Int, column: Int) -> Int { row * columns + column }
}
