import Foundation
import Geography
import Hummingbird
import Storage
import YogiYogini

/// `/api/v1/yoga/venues…`: saved venues, searching a provider near a point, the nearest saved venue, and
/// who usually comes to a venue.
struct YogaVenuesAPIController {
    let venues: YogaVenueRepository
    let sessions: YogaSessionRepository
    let roster: YogaRosterRepository
    let search: any VenueSearch

    /// `api`: the group at `/api/v1/yoga`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get("venues", use: list)
            .post("venues", use: create)
            .get("venues/search", use: searchNear)
            .get("venues/nearest", use: nearest)
        api.withProfile("venues/{id}", otherwise: YogaError.venueNotFound)
            .put(use: update)
            .delete(use: delete)
            .get("regulars", use: regulars)
    }

    struct VenuesAnswer: APIAnswer {
        let venues: [VenueJSON]
    }

    struct PlaceBody: Decodable {
        let name: String
        let address: String?
        let latitude: Double?
        let longitude: Double?
        let source: String?
        let external_id: String?

        var place: VenuePlace {
            VenuePlace(name: name, address: address ?? "", latitude: latitude, longitude: longitude)
        }
    }

    @Sendable func list(_ request: Request, context: TroveRequestContext) async throws -> VenuesAnswer {
        guard let profile = context.session.profile else { return VenuesAnswer(venues: []) }
        return VenuesAnswer(venues: try await venues.list(profileID: profile.id).map(VenueJSON.init))
    }

    @Sendable func create(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<VenueJSON> {
        let body = try await JSONBody.decode(PlaceBody.self, from: request)
        let place = try YogaValidation.place(body.place)
        let profile = try await context.session.requireProfile()
        return EditedResponse(
            status: .created, response: VenueJSON(try await venues.save(place, source: "typed", externalID: nil, profileID: profile.id)))
    }

    struct UpdateBody: Decodable {
        let name: String
        let address: String?
        let favourite: Bool
        /// The venue as the page knew it (the same fields): what the edit did not change keeps what was saved meanwhile.
        let base: Base?

        struct Base: Decodable {
            let name: String
            let address: String?
            let favourite: Bool
        }
    }

    @Sendable func update(_ request: Request, context: ProfileRequestContext) async throws -> VenueJSON {
        let id = try context.parameters.require("id")
        let body = try await JSONBody.decode(UpdateBody.self, from: request)
        let name = try YogaValidation.name(body.name, what: "The venue's name")
        let address = try YogaValidation.address(body.address)
        let base = try body.base.map { base throws(YogaError) in
            YogaVenueRepository.Edit(
                name: try YogaValidation.name(base.name, what: "The venue's name"), address: try YogaValidation.address(base.address),
                favourite: base.favourite)
        }
        let profile = context.profile
        return VenueJSON(
            try await venues.update(id: id, name: name, address: address, favourite: body.favourite, base: base, profileID: profile.id))
    }

    @Sendable func delete(_ request: Request, context: ProfileRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("id")
        let profile = context.profile
        try await venues.delete(id: id, profileID: profile.id)
        return .noContent
    }

    struct SearchAnswer: APIAnswer {
        struct Candidate: Encodable {
            let name: String
            let address: String
            @Nullable var latitude: Double?
            @Nullable var longitude: Double?
            let source: String
            let external_id: String
            @Nullable var distance_m: Double?
            @Nullable var saved_venue_id: String?
        }

        let provider: String
        let venues: [Candidate]
    }

    @Sendable func searchNear(_ request: Request, context: TroveRequestContext) async throws -> SearchAnswer {
        let (latitude, longitude) = try Self.point(request)
        let radius = try request.queryInt("radius_m", in: 100...50_000) ?? 3000
        let query = request.queryString("q").map { String($0.prefix(100)) }
        let found = try await search.venues(latitude: latitude, longitude: longitude, radiusMetres: radius, query: query)
        let saved = try await savedVenues(context)
        let savedByExternal = Dictionary(
            saved.compactMap { venue in venue.externalID.map { ("\(venue.source)/\($0)", venue.id) } },
            uniquingKeysWith: { first, _ in first })
        return SearchAnswer(
            provider: search.name,
            venues: found.prefix(50).map { candidate in
                SearchAnswer.Candidate(
                    name: candidate.place.name, address: candidate.place.address, latitude: candidate.place.latitude,
                    longitude: candidate.place.longitude,
                    source: candidate.source, external_id: candidate.externalID,
                    distance_m: candidate.distanceMetres.map { $0.rounded() },
                    saved_venue_id: savedByExternal["\(candidate.source)/\(candidate.externalID)"]
                )
            })
    }

    struct NearestAnswer: APIAnswer {
        @Nullable var venue: VenueJSON?
        @Nullable var distance_m: Double?
    }

    /// The nearest saved venue within 2 km: the one to suggest when the instructor opens the app there.
    @Sendable func nearest(_ request: Request, context: TroveRequestContext) async throws -> NearestAnswer {
        let (latitude, longitude) = try Self.point(request)
        let saved = try await savedVenues(context)
        let measured = saved.compactMap { venue -> (YogaVenueRepository.Venue, Double)? in
            guard let lat = venue.place.latitude, let lon = venue.place.longitude else { return nil }
            return (venue, GeoMath.distanceKilometres(latitude1: latitude, longitude1: longitude, latitude2: lat, longitude2: lon) * 1000)
        }.filter { $0.1 <= 2000 }.min { $0.1 < $1.1 }
        return NearestAnswer(venue: measured.map { VenueJSON($0.0) }, distance_m: measured.map { $0.1.rounded() })
    }

    struct RegularsAnswer: APIAnswer {
        struct Regular: Encodable {
            let id: String
            let name: String
            let times: Int
        }

        let students: [Regular]
    }

    @Sendable func regulars(_ request: Request, context: ProfileRequestContext) async throws -> RegularsAnswer {
        let id = try context.parameters.require("id")
        let profile = context.profile
        guard try await venues.venue(id: id, profileID: profile.id) != nil else {
            throw YogaError.venueNotFound
        }
        let there = try await sessions.list(profileID: profile.id).filter { $0.venueID == id }
        let active = Dictionary(
            try await roster.students(profileID: profile.id).filter(\.student.active).map { ($0.student.id, $0.student.name) },
            uniquingKeysWith: { first, _ in first })
        let ranked = YogaStatistics.regulars(sessionsNewestFirst: there.map { $0.attendees.map(\.studentID) })
        return RegularsAnswer(
            students: ranked.compactMap { regular in
                active[regular.id].map { RegularsAnswer.Regular(id: regular.id, name: $0, times: regular.times) }
            })
    }

    private func savedVenues(_ context: TroveRequestContext) async throws -> [YogaVenueRepository.Venue] {
        guard let profile = context.session.profile else { return [] }
        return try await venues.list(profileID: profile.id)
    }

    static func point(_ request: Request) throws -> (Double, Double) {
        let latitude = try request.requireQueryDouble("lat")
        let longitude = try request.requireQueryDouble("lon")
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw APIError.badRequest("Latitude must be from -90 to 90 and longitude from -180 to 180.")
        }
        return (latitude, longitude)
    }
}
