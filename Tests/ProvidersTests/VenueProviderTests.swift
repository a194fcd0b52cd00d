import Foundation
import Hummingbird
import HummingbirdTesting
import Providers
import Testing
import YogiYogini

/// The venue providers against local fakes answering in Overpass's and Foursquare's shapes, and slowly,
/// wrongly or with garbage when asked around latitudes 1, 2 and 3.
@Suite struct VenueProviderTests {
    static let overpassAnswer = #"""
        {"version":0.6,"generator":"Overpass API","elements":[
          {"type":"node","id":1001,"lat":43.7701,"lon":11.2501,"tags":{"name":"Sunrise Yoga Loft","sport":"yoga","addr:street":"Via Roma","addr:housenumber":"3","addr:city":"Firenze"}},
          {"type":"way","id":2002,"center":{"lat":43.7800,"lon":11.2600},"tags":{"name":"Lotus Studio","leisure":"fitness_centre","sport":"yoga"}},
          {"type":"node","id":3003,"lat":43.77,"lon":11.25,"tags":{"sport":"yoga"}},
          {"type":"node","id":1001,"lat":43.7701,"lon":11.2501,"tags":{"name":"Sunrise Yoga Loft","sport":"yoga"}}
        ]}
        """#

    static let foursquareAnswer = #"""
        {"results":[
          {"fsq_id":"5a1","name":"Prana House","categories":[{"id":13000,"name":"Yoga Studio"}],"geocodes":{"main":{"latitude":43.78,"longitude":11.26}},
           "location":{"address":"Via Verdi 1","locality":"Firenze","formatted_address":"Via Verdi 1, 50122 Firenze"},"distance":1200},
          {"fsq_id":"5a2","name":"Asana Lab","geocodes":{"main":{"latitude":43.771,"longitude":11.251}},"location":{"address":"Piazza 2"},"distance":150},
          {"fsq_id":"5a3","name":"No Place","location":{}}
        ]}
        """#

    func withFakes(_ body: @Sendable @escaping (URL) async throws -> Void) async throws {
        let router = Router()
        @Sendable func answer(latitude: String, good: String) async throws -> Response {
            switch Double(latitude).map(Int.init) {
            case 1:
                try await Task.sleep(for: .seconds(30))
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: good)))
            case 2: return Response(status: .tooManyRequests)
            case 3: return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<?xml version=\"1.0\"?><osm/>")))
            default: return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: good)))
            }
        }
        router.get("/api/interpreter") { request, _ in
            let query = request.uri.queryParameters.get("data") ?? ""
            #expect(query.contains("[out:json]") && query.contains("sport"))
            let latitude =
                query.components(separatedBy: "around:").dropFirst().first?.split(separator: ",").dropFirst().first.map(String.init) ?? ""
            return try await answer(latitude: latitude, good: Self.overpassAnswer)
        }
        router.get("/v3/places/search") { request, _ in
            guard request.headers[.authorization] == "good-key" else {
                return Response(
                    status: .unauthorized, body: .init(byteBuffer: ByteBuffer(string: #"{"message":"Invalid request token."}"#)))
            }
            let latitude = request.uri.queryParameters.get("ll")?.split(separator: ",").first.map(String.init) ?? ""
            return try await answer(latitude: latitude, good: Self.foursquareAnswer)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(URL(string: "http://127.0.0.1:\(client.port!)")!) }
    }

    /// For answers that should fail: a short deadline. For good answers, a patient one, because a machine
    /// running every suite at once can starve the fake server for a second or more.
    let fetcher = JSONFetcher(timeout: .seconds(1))
    let patient = JSONFetcher(timeout: .seconds(10))

    @Test func readsOverpassNamedPlacesNearestFirst() async throws {
        try await withFakes { base in
            let found = try await OverpassVenues(baseURL: base, fetcher: patient).venues(
                latitude: 43.77, longitude: 11.25, radiusMetres: 3000, query: nil)
            #expect(found.map(\.place.name) == ["Sunrise Yoga Loft", "Lotus Studio"])
            #expect(
                found[0].place.address == "Via Roma 3, Firenze" && found[0].externalID == "node/1001" && found[0].source == "openstreetmap")
            #expect(found[1].place.latitude == 43.78 && found[1].externalID == "way/2002")
            #expect((found[0].distanceMetres ?? 0) < 20)
            let lotus = try await OverpassVenues(baseURL: base, fetcher: patient).venues(
                latitude: 43.77, longitude: 11.25, radiusMetres: 3000, query: "lotus")
            #expect(lotus.map(\.place.name) == ["Lotus Studio"])
        }
    }

    @Test func readsFoursquareWithItsKey() async throws {
        try await withFakes { base in
            let found = try await FoursquareVenues(baseURL: base, key: "good-key", fetcher: patient).venues(
                latitude: 43.77, longitude: 11.25, radiusMetres: 3000, query: nil)
            #expect(found.map(\.place.name) == ["Asana Lab", "Prana House"])
            #expect(
                found[1].place.address == "Via Verdi 1, 50122 Firenze" && found[1].externalID == "5a1" && found[1].source == "foursquare")
            #expect(found[0].place.address == "Piazza 2")
            await #expect(throws: VenuesUnavailable.self) {
                try await FoursquareVenues(baseURL: base, key: "bad-key", fetcher: patient).venues(
                    latitude: 43.77, longitude: 11.25, radiusMetres: 3000, query: nil)
            }
        }
    }

    @Test(arguments: [1.0, 2.0, 3.0])
    func slowRefusingAndGarbageAnswersAreUnavailable(latitude: Double) async throws {
        try await withFakes { base in
            let started = ContinuousClock.now
            async let overpass = fails(OverpassVenues(baseURL: base, fetcher: fetcher), latitude: latitude)
            async let foursquare = fails(FoursquareVenues(baseURL: base, key: "good-key", fetcher: fetcher), latitude: latitude)
            let answers = await [overpass, foursquare]
            #expect(answers == [true, true])
            // A 1 s deadline (Deadline does not wait for the cancelled request), against a service that takes 30 s. The
            // rest is the test process's own scheduling: worst seen 7.3 s, with browser suites running beside the full
            // swift test run; half the slow answer still tells the two apart.
            #expect(ContinuousClock.now - started < .seconds(15))
        }
    }

    func fails(_ search: some VenueSearch, latitude: Double) async -> Bool {
        do {
            _ = try await search.venues(latitude: latitude, longitude: 0, radiusMetres: 1000, query: nil)
            return false
        } catch {
            return true
        }
    }
}
