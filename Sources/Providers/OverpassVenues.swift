import Foundation
import Geography
import YogiYogini

/// OpenStreetMap's Overpass API (no key): yoga and fitness places around a point. Fitness tagging is
/// inconsistent in OpenStreetMap, hence the union of three queries; places without a name are dropped.
/// Data © OpenStreetMap contributors (ODbL): pages showing these results credit it.
public struct OverpassVenues: VenueSearch {
    public static let defaultBaseURL = URL(string: "https://overpass-api.de")!
    public let name = "openstreetmap"
    let baseURL: URL
    let fetcher: JSONFetcher

    public init(baseURL: URL = defaultBaseURL, fetcher: JSONFetcher) {
        self.baseURL = baseURL
        self.fetcher = fetcher
    }

    struct Answer: Decodable, Sendable {
        struct Element: Decodable, Sendable {
            struct Center: Decodable, Sendable {
                let lat: Double
                let lon: Double
            }

            let type: String
            let id: Int
            let lat: Double?
            let lon: Double?
            let center: Center?
            let tags: [String: String]?
        }

        let elements: [Element]
    }

    static func query(latitude: Double, longitude: Double, radiusMetres: Int) -> String {
        let around = "around:\(radiusMetres),\(latitude),\(longitude)"
        return """
            [out:json][timeout:10];
            ( nwr["sport"="yoga"](\(around));
              nwr["leisure"="fitness_centre"]["sport"~"yoga"](\(around));
              nwr["name"~"yoga",i]["leisure"](\(around)); );
            out center tags;
            """
    }

    public func venues(latitude: Double, longitude: Double, radiusMetres: Int, query: String?) async throws(VenuesUnavailable)
        -> [VenueCandidate]
    {
        var components = URLComponents(url: baseURL.appendingPathComponent("api/interpreter"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "data", value: Self.query(latitude: latitude, longitude: longitude, radiusMetres: radiusMetres))
        ]
        let answer: Answer
        do {
            answer = try await fetcher.get(Answer.self, from: components.url!)
        } catch {
            throw VenuesUnavailable(reason: "Overpass: \(error)")
        }
        let wanted = query.map { $0.lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
        var seen = Set<String>()
        return answer.elements.compactMap { element -> VenueCandidate? in
            guard let tags = element.tags, let name = tags["name"]?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
                let lat = element.lat ?? element.center?.lat, let lon = element.lon ?? element.center?.lon,
                seen.insert("\(element.type)/\(element.id)").inserted
            else { return nil }
            let address = Self.address(tags)
            if let wanted, !name.lowercased().contains(wanted), !address.lowercased().contains(wanted) { return nil }
            return VenueCandidate(
                place: VenuePlace(name: name, address: address, latitude: lat, longitude: lon), source: self.name,
                externalID: "\(element.type)/\(element.id)",
                distanceMetres: GeoMath.distanceKilometres(latitude1: latitude, longitude1: longitude, latitude2: lat, longitude2: lon)
                    * 1000
            )
        }.sorted { ($0.distanceMetres ?? 0) < ($1.distanceMetres ?? 0) }
    }

    /// "Via Roma 3, Firenze" from OpenStreetMap's addr:* tags.
    static func address(_ tags: [String: String]) -> String {
        let street = [tags["addr:street"], tags["addr:housenumber"]].compactMap { $0 }.joined(separator: " ")
        return [street, tags["addr:city"] ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
    }
}
