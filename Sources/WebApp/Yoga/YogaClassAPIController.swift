import Foundation
import Geography
import Hummingbird
import Storage
import Weather
import YogiYogini

/// `/api/v1/yoga/class…`: check in, change attendance and notes, the outside temperature, end the class.
struct YogaClassAPIController {
    let classes: YogaClassRepository
    let venues: YogaVenueRepository
    let roster: YogaRosterRepository
    let sessions: YogaSessionRepository
    let weather: WeatherCache

    /// `api`: the group at `/api/v1/yoga`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get("class", use: current)
            .post("class", use: checkIn)
            .get("weather", use: temperatureAt)
        api.withProfile("class", otherwise: YogaError.noClass)
            .patch(use: change)
            .get("weather", use: temperature)
            .post("end", use: end)
    }

    struct ClassAnswer: APIAnswer, JSONWritable {
        @Nullable var `class`: ClassJSON?

        func write(to writer: inout JSONWriter) {
            writer.object { w in
                w.key("class")
                if let running = `class` { running.write(to: &w) } else { w.null() }
            }
        }
    }

    @Sendable func current(_ request: Request, context: TroveRequestContext) async throws -> ClassAnswer {
        guard let profile = context.session.profile else { return ClassAnswer(class: nil) }
        let running = try await classes.current(profileID: profile.id)
        return ClassAnswer(class: running.map { ClassJSON($0, now: Date()) })
    }

    struct CheckInBody: Decodable {
        let venue_id: String?
        let venue: YogaVenuesAPIController.PlaceBody?
        let attendees: [String]?
        let notes: String?
        /// A class checked in on a device without a connection, handed over once it has one: when it started.
        let started_at: String?
        let temperature_c: Double?
    }

    @Sendable func checkIn(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<ClassAnswer> {
        let body = try await JSONBody.decode(CheckInBody.self, from: request)
        let notes = try YogaValidation.notes(body.notes)
        let temperature = try YogaValidation.temperature(body.temperature_c)
        let now = Date()
        let start = try YogaValidation.checkInTime(body.started_at.map { try YogaTime.parse($0, field: "started_at") }, now: now)
        let attendees = body.attendees ?? []
        guard attendees.count <= 500 else { throw YogaError.invalid("At most 500 attendees.") }
        let profile = try await context.session.requireProfile()
        let unknown = try await roster.unknownStudents(attendees, profileID: profile.id)
        guard unknown.isEmpty else { throw YogaError.notOnRoster(unknown) }
        // Refuse before saving a new venue, so a refused check-in writes nothing.
        if try await classes.current(profileID: profile.id) != nil { throw YogaError.classInSession }
        let venue = try await Self.venue(id: body.venue_id, place: body.venue, profileID: profile.id, venues: venues)
        try await venues.markUsed(id: venue.id, profileID: profile.id, at: now)
        let running = try await classes.start(
            venueID: venue.id, place: venue.place, attendeeIDs: attendees, notes: notes, temperature: temperature,
            profileID: profile.id, at: start)
        return EditedResponse(status: .created, response: ClassAnswer(class: ClassJSON(running, now: now)))
    }

    /// The venue a class is held at: a saved one by id, or a new one (typed, or found at a provider) saved now.
    static func venue(
        id: String?, place: YogaVenuesAPIController.PlaceBody?, profileID: String, venues: YogaVenueRepository
    ) async throws -> YogaVenueRepository.Venue {
        switch (id, place) {
        case let (id?, nil):
            guard let saved = try await venues.venue(id: id, profileID: profileID) else { throw YogaError.venueNotFound }
            return saved
        case let (nil, place?):
            let source = place.source ?? "typed"
            guard ["typed", "openstreetmap", "foursquare"].contains(source) else {
                throw YogaError.invalid("'source' must be typed, openstreetmap or foursquare.")
            }
            let externalID = source == "typed" ? nil : place.external_id.flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }
            return try await venues.save(
                try YogaValidation.place(place.place), source: source, externalID: externalID, profileID: profileID)
        default:
            throw YogaError.invalid("Check in with either 'venue_id' (a saved venue) or 'venue' (a new one), not both or neither.")
        }
    }

    struct ChangeBody: JSONReadable {
        let add: [String]?
        let remove: [String]?
        let notes: String?
        /// The notes as the writing device last saw them: notes changed meanwhile on another device are kept beside
        /// these (`editedText`). Left out, the notes are replaced.
        let was: String?
        /// The outside temperature typed or corrected: a number, null to clear it, or left out to keep it.
        let temperature: Double??

        enum CodingKeys: String, CodingKey {
            case add, remove, notes, was, temperature_c
        }

        /// As `init(from:)` reads it; anything else (an escape, a repeated member, a wrong type) is left to it.
        init(reading reader: inout JSONReader) throws(JSONReader.GiveUp) {
            var add: [String]??
            var remove: [String]??
            var notes: String??
            var was: String??
            var temperature: Double???
            try reader.object { reader, key throws(JSONReader.GiveUp) in
                switch key {
                case "add": try JSONReader.once(&add, try Self.strings(&reader))
                case "remove": try JSONReader.once(&remove, try Self.strings(&reader))
                case "notes": try JSONReader.once(&notes, try reader.null() ? nil : try reader.string())
                case "was": try JSONReader.once(&was, try reader.null() ? nil : try reader.string())
                case "temperature_c": try JSONReader.once(&temperature, try reader.null() ? nil : try reader.double())
                default: try reader.skip()
                }
            }
            self.add = add ?? nil
            self.remove = remove ?? nil
            self.notes = notes ?? nil
            self.was = was ?? nil
            self.temperature = temperature ?? nil
        }

        private static func strings(_ reader: inout JSONReader) throws(JSONReader.GiveUp) -> [String]? {
            if try reader.null() { return nil }
            var list: [String] = []
            try reader.array { reader throws(JSONReader.GiveUp) in list.append(try reader.string()) }
            return list
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            add = try container.decodeIfPresent([String].self, forKey: .add)
            remove = try container.decodeIfPresent([String].self, forKey: .remove)
            notes = try container.decodeIfPresent(String.self, forKey: .notes)
            was = try container.decodeIfPresent(String.self, forKey: .was)
            if container.contains(.temperature_c) {
                temperature = .some(
                    try container.decodeNil(forKey: .temperature_c) ? nil : try container.decode(Double.self, forKey: .temperature_c))
            } else {
                temperature = nil
            }
        }
    }

    @Sendable func change(_ request: Request, context: ProfileRequestContext) async throws -> ClassAnswer {
        let body = try await JSONBody.decode(ChangeBody.self, from: request)
        let notes = try body.notes.map { text throws(YogaError) in try YogaValidation.notes(text, over: body.was) }
        let profile = context.profile
        let add = body.add ?? []
        guard add.count <= 500 else { throw YogaError.invalid("At most 500 attendees.") }
        let temperature = try body.temperature.map { value throws(YogaError) in try YogaValidation.temperature(value) }
        // The repository refuses an added id that is not on the roster.
        var running = try await classes.change(add: add, remove: body.remove ?? [], notes: notes, over: body.was, profileID: profile.id)
        if let temperature {
            try await classes.setTemperature(temperature, profileID: profile.id)
            running = try await classes.current(profileID: profile.id) ?? running
        }
        return ClassAnswer(class: ClassJSON(running, now: Date()))
    }

    struct TemperatureAnswer: APIAnswer {
        let temperature_c: Double
        let condition: String
        let description: String
    }

    /// The outside temperature at the class's venue, fetched now (or from the cache) and kept on the class.
    @Sendable func temperature(_ request: Request, context: ProfileRequestContext) async throws -> TemperatureAnswer {
        let profile = context.profile
        guard let running = try await classes.current(profileID: profile.id) else {
            throw YogaError.noClass
        }
        guard let latitude = running.place.latitude, let longitude = running.place.longitude else {
            throw YogaError.venueWithoutCoordinates
        }
        let answer = try await weather.current(latitude: latitude, longitude: longitude, refresh: request.queryFlag("refresh"))
        Telemetry.cacheLookup("weather", hit: answer.cached)
        let celsius = (answer.weather.temperatureCelsius * 10).rounded() / 10
        try await classes.setTemperature(celsius, profileID: profile.id)
        return TemperatureAnswer(
            temperature_c: celsius, condition: answer.weather.condition.rawValue, description: answer.weather.description)
    }

    /// The temperature at a point, keeping nothing: for a class held on the device (checked in offline), which
    /// the server does not know, so the page asks for its venue's position and keeps the answer itself.
    @Sendable func temperatureAt(_ request: Request, context: TroveRequestContext) async throws -> TemperatureAnswer {
        let latitude = try request.requireQueryDouble("lat")
        let longitude = try request.requireQueryDouble("lon")
        guard GeoMath.isValid(latitude: latitude, longitude: longitude) else {
            throw APIError.badRequest("Latitude must be from -90 to 90 and longitude from -180 to 180.")
        }
        let answer = try await weather.current(latitude: latitude, longitude: longitude, refresh: request.queryFlag("refresh"))
        Telemetry.cacheLookup("weather", hit: answer.cached)
        let celsius = (answer.weather.temperatureCelsius * 10).rounded() / 10
        return TemperatureAnswer(
            temperature_c: celsius, condition: answer.weather.condition.rawValue, description: answer.weather.description)
    }

    struct EndBody: Decodable {
        let action: String
    }

    struct SavedAnswer: Encodable {
        let session: SessionJSON
    }

    struct DiscardedAnswer: Encodable {
        let discarded: Bool
    }

    @Sendable func end(_ request: Request, context: ProfileRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(EndBody.self, from: request)
        guard ["save", "discard"].contains(body.action) else { throw YogaError.invalid("'action' must be save or discard.") }
        let profile = context.profile
        guard let id = try await classes.end(save: body.action == "save", profileID: profile.id, at: Date()) else {
            return JSONResponse.make(DiscardedAnswer(discarded: true))
        }
        return JSONResponse.make(
            SavedAnswer(session: SessionJSON(try await sessions.session(id: id, profileID: profile.id)!)), status: .created)
    }
}
