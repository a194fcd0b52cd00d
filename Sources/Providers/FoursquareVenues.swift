import Foundation
import YogiYogini

/// Foursquare Places (v3 search; needs a key): yoga places around a point. The v2 API the original app
/// used is gone.
public struct FoursquareVenues: VenueSearch {
    public static let defaultBaseURL = URL(string: "https://api.foursquare.com")!
    public let name = "foursquare"
    let baseURL: URL
    let key: String
    let fetcher: JSONFetcher

    public init(baseURL: URL = defaultBaseURL, key: String, fetcher: JSONFetcher) {
        self.baseURL = baseURL
        self.key = key
        self.fetcher = fetcher
    }

    struct Answer: Decodable, Sendable {
        struct Place: Decodable, Sendable {
            struct Geocodes: Decodable, Sendable {
                struct Point: Decodable, Sendable {
                    let latitude: Double
                    let longitude: Double
                }

                let main: Point?
            }

            struct Location: Decodable, Sendable {
                let address: String?
                let locality: String?
                let formatted_address: String?
            }

            let fsq_id: String
            let name: String
            let geocodes: Geocodes?
            let location: Location?
            let distance: Double?
        }

        let results: [Place]
    }

    public func venues(latitude: Double, longitude: Double, radiusMetres: Int, query: String?) async throws(VenuesUnavailable)
        -> [VenueCandidate]
    {
        var components = URLComponents(url: baseURL.appendingPathComponent("v3/places/search"), resolvingAgainstBaseURL: false)!
        let search = query.flatMap { $0.isEmpty ? nil : $0 } ?? "yoga"
        components.queryItems = [
            URLQueryItem(name: "query", value: search),
            URLQueryItem(name: "ll", value: "\(latitude),\(longitude)"),
            URLQueryItem(name: "radius", value: String(min(radiusMetres, 100_000))),
            URLQueryItem(name: "limit", value: "50"),
        ]
        let answer: Answer
        do {
            answer = try await fetcher.get(Answer.self, from: components.url!, headers: [("Authorization", key)])
        } catch {
            throw VenuesUnavailable(reason: "Foursquare: \(error)")
        }
        return answer.results.compactMap { place -> VenueCandidate? in
            let name = place.name.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, let point = place.geocodes?.main else { return nil }
            let address =
                place.location?.formatted_address
                ?? [place.location?.address, place.location?.locality].compactMap { $0 }.joined(separator: ", ")
            return VenueCandidate(
                place: VenuePlace(name: name, address: address, latitude: point.latitude, longitude: point.longitude),
                source: self.name, externalID: place.fsq_id, distanceMetres: place.distance
            )
        }.sorted { ($0.distanceMetres ?? .infinity) < ($1.distanceMetres ?? .infinity) }
    }
}
