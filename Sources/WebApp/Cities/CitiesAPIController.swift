import CityRoulette
import Foundation
import Hummingbird
import Storage
import Weather

/// `/api/v1/cities/…`: finding cities (around a point, by surprise, by name), a city's facts and weather,
/// countries, and the world's cities as map dots.
struct CitiesAPIController {
    let store: CityCatalogStore
    let cities: CityRepository
    let collection: CityCollectionRepository
    let history: SurpriseHistoryRepository
    let weather: WeatherCache
    let basemaps: BasemapRepository
    let articles: CityArticleCache
    let rules = SurpriseRules()

    /// `api`: the group at `/api/v1/cities`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get("nearby", use: nearby)
            .post("surprise", use: surprise)
            .get("search", use: search)
            .get("map-points", use: mapPoints)
            .get("basemap", use: basemap)
            .get("countries", use: countries)
            .get("countries/{iso}", use: country)
            .get("{geonameid}", use: city)
            .get("{geonameid}/weather", use: cityWeather)
            .get("{geonameid}/article", use: article)
    }

    struct ArticleAnswer: APIAnswer {
        let geonameid: Int
        let title: String
        let url: String
        let extract: String
    }

    /// The city's Wikipedia article where one is known (404 `no_article` where none is: the page then offers a
    /// search, labelled as one).
    @Sendable func article(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<ArticleAnswer> {
        let (city, _) = try await requireCity(context)
        let answer = try await articles.article(for: city)
        Telemetry.cacheLookup("articles", hit: answer.cached)
        guard let found = answer.article else {
            throw APIError(.notFound, code: "no_article", message: "Wikipedia has no article about \(city.name) that Trove could find.")
        }
        var headers = HTTPFields()
        headers[.cacheControl] = "private, max-age=3600"
        return EditedResponse(
            headers: headers, response: ArticleAnswer(geonameid: city.geonameid, title: found.title, url: found.url, extract: found.extract)
        )
    }

    struct Center: Encodable {
        let latitude: Double
        let longitude: Double
    }

    struct NearbyAnswer: JSONWritable, APIAnswer {
        let center: Center
        let radius_km: Double
        let cities: [CityJSON]

        func write(to writer: inout JSONWriter) {
            writer.object { w in
                w.key("center")
                w.object { w in
                    w.key("latitude")
                    w.number(center.latitude)
                    w.key("longitude")
                    w.number(center.longitude)
                }
                w.key("radius_km")
                w.number(radius_km)
                w.key("cities")
                w.array(cities) { w, city in city.write(to: &w) }
            }
        }
    }

    @Sendable func nearby(_ request: Request, context: TroveRequestContext) async throws -> NearbyAnswer {
        let latitude = try request.requireQueryDouble("lat")
        let longitude = try request.requireQueryDouble("lon")
        let radius = try request.queryDouble("radius_km") ?? rules.radiusKilometres
        let limit = try request.queryInt("limit") ?? rules.limit
        let catalog = try await store.catalog()
        let found = try catalog.nearby(latitude: latitude, longitude: longitude, radiusKilometres: radius, limit: limit)
        return NearbyAnswer(
            center: Center(latitude: latitude, longitude: longitude), radius_km: radius, cities: found.map { json($0, catalog) }
        )
    }

    struct SurpriseAnswer: APIAnswer {
        struct CountryName: Encodable {
            let iso: String
            let name: String
        }

        let found: Bool
        let tries: Int
        @Nullable var country: CountryName?
        @Nullable var center: Center?
        let cities: [CityJSON]
    }

    /// POST because it changes the profile's search history.
    @Sendable func surprise(_ request: Request, context: TroveRequestContext) async throws -> SurpriseAnswer {
        var rules = rules
        rules.radiusKilometres = try request.queryDouble("radius_km") ?? rules.radiusKilometres
        rules.limit = try request.queryInt("limit") ?? rules.limit
        let catalog = try await store.catalog()
        // Validates the radius and limit the same way as "Around Me".
        _ = try catalog.nearby(latitude: 0, longitude: 0, radiusKilometres: rules.radiusKilometres, limit: rules.limit)
        let profile = try await context.session.requireProfile()
        let recent = try await history.recent(profileID: profile.id, limit: rules.historyLength)
        var generator = SystemRandomNumberGenerator()
        let outcome = try rules.surprise(in: catalog, history: recent, using: &generator)
        if outcome.found {
            try await history.record(outcome.cities.map(\.city.geonameid), profileID: profile.id, keep: rules.historyLength)
        }
        return SurpriseAnswer(
            found: outcome.found, tries: outcome.tries,
            country: outcome.countryCode.map { .init(iso: $0, name: catalog.countries[$0]?.name ?? $0) },
            center: outcome.center.map { Center(latitude: $0.latitude, longitude: $0.longitude) },
            cities: outcome.cities.map { json($0, catalog) }
        )
    }

    struct CitiesAnswer: JSONWritable, APIAnswer {
        let cities: [CityJSON]

        func write(to writer: inout JSONWriter) {
            writer.object { w in
                w.key("cities")
                w.array(cities) { w, city in city.write(to: &w) }
            }
        }
    }

    @Sendable func search(_ request: Request, context: TroveRequestContext) async throws -> CitiesAnswer {
        guard let query = request.queryString("q") else { throw CityError.invalidQuery("Type part of a city's name (q=…).") }
        let limit = try request.queryInt("limit") ?? 20
        let catalog = try await store.catalog()
        let found = try catalog.search(query, limit: limit)
        // The index holds folded keys ("firenze"); show the name as written ("Firenze"): most follow from their
        // key, the others are read.
        let unspelled = Dictionary(
            found.compactMap { result in
                result.matchedName != nil && result.matchedSpelling == nil ? (result.city.geonameid, result.matchedNamePosition) : nil
            },
            uniquingKeysWith: { first, _ in first })
        let spellings = try await cities.spellings(at: unspelled)
        let results = found.map { result in
            var json = CityJSON(result.city, catalog: catalog)
            json.matched_name = .some(result.matchedName.map { result.matchedSpelling ?? spellings[result.city.geonameid] ?? $0 })
            return json
        }
        return CitiesAnswer(cities: results)
    }

    struct CityAnswer: APIAnswer {
        struct CountryName: Encodable {
            let iso: String
            let name: String
        }

        struct Sun: Encodable {
            let date: String
            @Nullable var sunrise: Date?
            @Nullable var sunset: Date?
            @Nullable var polar: String?
        }

        struct Collected: Encodable {
            let favourite: Bool
        }

        let city: CityJSON
        let country: CountryName
        let sun: Sun
        let collection: Collected?

        func encode(to encoder: any Encoder) throws {
            try city.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(country, forKey: .country)
            try container.encode(sun, forKey: .sun)
            try container.encode(collection, forKey: .collection)
        }

        enum Keys: String, CodingKey { case country, sun, collection }
    }

    @Sendable func city(_ request: Request, context: TroveRequestContext) async throws -> CityAnswer {
        let (city, catalog) = try await requireCity(context)
        let entry: CityCollectionRepository.Entry? =
            if let profile = context.session.profile {
                try await collection.entry(geonameid: city.geonameid, profileID: profile.id)
            } else { nil }
        let day = CityDay(city: city, now: Date())
        return CityAnswer(
            city: CityJSON(city, catalog: catalog),
            country: .init(iso: city.countryCode, name: catalog.countries[city.countryCode]?.name ?? city.countryCode),
            sun: .init(date: day.dateText, sunrise: day.sun.sunrise, sunset: day.sun.sunset, polar: day.sun.polar?.rawValue),
            collection: entry.map { .init(favourite: $0.favourite) }
        )
    }

    struct WeatherAnswer: APIAnswer {
        let geonameid: Int
        let condition: String
        let description: String
        let is_day: Bool
        let temperature_c: Double
        let observed_at: Date
        let provider: String
        let cached: Bool
    }

    @Sendable func cityWeather(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<WeatherAnswer> {
        let (city, _) = try await requireCity(context)
        let answer = try await weather.current(latitude: city.latitude, longitude: city.longitude, refresh: request.queryFlag("refresh"))
        Telemetry.cacheLookup("weather", hit: answer.cached)
        let now = answer.weather
        var headers = HTTPFields()
        headers[.cacheControl] = "private, max-age=60"
        return EditedResponse(
            headers: headers,
            response: WeatherAnswer(
                geonameid: city.geonameid, condition: now.condition.rawValue, description: now.description, is_day: now.isDay,
                temperature_c: (now.temperatureCelsius * 10).rounded() / 10, observed_at: now.observedAt, provider: now.provider,
                cached: answer.cached
            ))
    }

    struct CountriesAnswer: APIAnswer {
        struct Item: Encodable {
            let iso: String
            let name: String
            let continent: String
            let city_count: Int
        }

        let countries: [Item]
    }

    @Sendable func countries(_ request: Request, context: TroveRequestContext) async throws -> CountriesAnswer {
        let catalog = try await store.catalog()
        let items = catalog.countries.values.sorted { $0.name < $1.name }.map {
            CountriesAnswer.Item(iso: $0.iso, name: $0.name, continent: $0.continentCode, city_count: catalog.cityCount(in: $0.iso))
        }
        return CountriesAnswer(countries: items)
    }

    @Sendable func country(_ request: Request, context: TroveRequestContext) async throws -> CountryJSON {
        let catalog = try await store.catalog()
        let iso = (context.parameters.get("iso") ?? "").uppercased()
        guard let country = catalog.countries[iso] else { throw CityError.countryNotFound }
        return CountryJSON(country, catalog: catalog)
    }

    /// The offline basemap as imported; the page keeps it (ETag, a day's cache) and draws it when tiles fail.
    @Sendable func basemap(_ request: Request, context: TroveRequestContext) async throws -> Response {
        guard let basemap = try await basemaps.current() else {
            throw APIError(
                .notFound, code: "basemap_not_imported", message: "The offline basemap is not imported: run `trove import basemap`.")
        }
        var headers = HTTPFields()
        headers[.eTag] = basemap.etag
        headers[.cacheControl] = "public, max-age=86400"
        if request.hasCurrentCopy(etag: basemap.etag) { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: basemap.body)))
    }

    @Sendable func mapPoints(_ request: Request, context: TroveRequestContext) async throws -> Response {
        let (data, etag) = try await store.mapPointData()
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = "public, max-age=3600"
        if request.hasCurrentCopy(etag: etag) { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = "application/octet-stream"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    func requireCity(_ context: TroveRequestContext) async throws -> (City, CityCatalog) {
        let id = try context.parameters.requireID("geonameid")
        let catalog = try await store.catalog()
        guard let city = catalog.city(id: id) else { throw CityError.cityNotFound }
        return (city, catalog)
    }

    private func json(_ nearby: NearbyCity, _ catalog: CityCatalog) -> CityJSON {
        var json = CityJSON(nearby.city, catalog: catalog)
        json.distance_km = nearby.distanceKilometres
        return json
    }
}

/// A city's own calendar day now, and the sun on it.
struct CityDay {
    let dateText: String
    let sun: SunTimes

    init(city: City, now: Date) {
        let zone = TimeZone(identifier: city.timezone) ?? TimeZone(secondsFromGMT: Int((city.longitude / 15).rounded()) * 3600)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        dateText = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        sun = SunTimes.forDay(containing: now, timeZone: zone, latitude: city.latitude, longitude: city.longitude)
    }
}
