/// Finds cities by name as people type: a name or alternate name matches when the query is a prefix of it
/// or of one of its words, ignoring case, accents and punctuation (keys come from `SearchKey`).
///
/// Keys are bucketed by their first two characters, so a query reads one bucket (a few thousand keys for
/// common starts) instead of all of them, and the index builds in one pass with no sorting.
public struct NameIndex: Sendable {
    struct Entry: Sendable {
        let key: String
        let cityIndex: Int32
        /// 0: the key is the whole primary name; 1: a word of the primary name; 2: an alternate name; 3: a word of one.
        let kind: UInt8
    }

    private var buckets: [UInt64: [Entry]] = [:]
    /// Bucket ids by their first character, for one-character queries.
    private var bucketsByFirst: [UInt32: [UInt64]] = [:]

    public init() {}

    /// Adds a city's keys: `primary` is its normalized name; `alternates` its other normalized names.
    public mutating func add(cityIndex: Int, primary: String, alternates: some Sequence<String>) {
        add(primary, cityIndex: cityIndex, alternate: false)
        for key in alternates { add(key, cityIndex: cityIndex, alternate: true) }
    }

    private mutating func add(_ key: String, cityIndex: Int, alternate: Bool) {
        guard !key.isEmpty else { return }
        for (offset, tail) in SearchKey.wordTails(of: key).enumerated() {
            let kind = UInt8((alternate ? 2 : 0) + (offset == 0 ? 0 : 1))
            let bucket = Self.bucket(tail.unicodeScalars)
            let entry = Entry(key: String(tail), cityIndex: Int32(cityIndex), kind: kind)
            if buckets[bucket]?.append(entry) == nil {
                buckets[bucket] = [entry]
                bucketsByFirst[UInt32(bucket >> 32), default: []].append(bucket)
            }
        }
    }

    /// The first two scalars of a key, packed: (first << 32) | second.
    static func bucket(_ scalars: some Sequence<Unicode.Scalar>) -> UInt64 {
        var iterator = scalars.makeIterator()
        let first = iterator.next().map { UInt64($0.value) } ?? 0
        let second = iterator.next().map { UInt64($0.value) } ?? 0
        return first << 32 | second
    }

    public struct Match: Sendable, Equatable {
        public let cityIndex: Int
        /// The key that matched (normalized).
        public let key: String
        /// 0: the city's own name is the query; 1: its own name starts with the query, or an alternate name
        /// does (alternate names are many and uneven, so an exact one counts for no more); 2: a later word does.
        public let tier: Int
        /// Whether it was an alternate name that matched rather than the city's own.
        public let alternate: Bool
    }

    /// Each city whose keys match the (already normalized) query once, with its best match.
    public func matches(_ query: String) -> [Match] {
        let scalars = Array(query.unicodeScalars)
        guard let first = scalars.first else { return [] }
        let bucketIDs = scalars.count >= 2 ? [Self.bucket(scalars)] : bucketsByFirst[first.value] ?? []
        var best: [Int32: Match] = [:]
        for id in bucketIDs {
            for entry in buckets[id] ?? [] where entry.key.utf8.starts(with: query.utf8) {
                let wordMatch = entry.kind & 1 == 1
                let alternate = entry.kind >= 2
                let tier = wordMatch ? 2 : (!alternate && entry.key.utf8.count == query.utf8.count ? 0 : 1)
                // Per city, the best tier wins, and its own name beats an alternate one.
                if let current = best[entry.cityIndex], (current.tier, current.alternate ? 1 : 0) <= (tier, alternate ? 1 : 0) { continue }
                best[entry.cityIndex] = Match(cityIndex: Int(entry.cityIndex), key: entry.key, tier: tier, alternate: alternate)
            }
        }
        return Array(best.values)
    }
}
