import Foundation

/// Finds cities by name as people type: a name or alternate name matches when the query is a prefix of it
/// or of one of its words, ignoring case, accents and punctuation (keys come from `SearchKey`).
///
/// Every key and each of its word tails ("san jose" and "jose") is one entry of a table sorted by its UTF-8
/// bytes, so the entries a query matches are one contiguous range, found by binary search. A range is read
/// entry by entry, keeping each city's best match, and the cities are ranked. The few ranges too long for
/// that to be quick — one or two letters: "s" starts 150,000 entries — have their ranked answer computed
/// when the index is built (`heavyRange`), so every query reads at most `heavyRange` entries.
public struct NameIndex: Sendable {
    public struct Match: Sendable, Equatable {
        public let cityIndex: Int
        /// The key that matched (normalized).
        public let key: String
        /// 0: a whole name (own or alternate) starts with the query; 1: only a later word of one does.
        public let tier: Int
        /// Whether it was an alternate name that matched rather than the city's own.
        public let alternate: Bool
        /// Which of the city's names matched: its position in the list the builder was given, the city's own
        /// name 0, its alternates from 1 (so the name as written can be read without matching keys again).
        public let name: Int
        /// The alternate name as written, when its key gives it (`SearchKey.Spelling`); otherwise nil, and the
        /// database has it at position `name`.
        public let spelling: String?
    }

    struct Entry: Sendable {
        /// The key is `bytes[start ..< start + length]`.
        let start: Int32
        let length: UInt16
        /// The kind in the low two bits, the spelling rule in the next two, the name's position (`Match.name`)
        /// above them: one field, so an entry stays 12 bytes.
        let tag: UInt16
        let city: Int32

        /// 0: the key is the whole primary name; 1: a word of the primary name; 2: an alternate name; 3: a word of one.
        var kind: UInt8 { UInt8(tag & 3) }
        var spelling: SearchKey.Spelling { SearchKey.Spelling(rawValue: UInt8(tag >> 2 & 3)) ?? .stored }
        var name: Int { Int(tag >> 4) }
    }

    /// A city's names past this many are not indexed (GeoNames' largest city has 228).
    public static let maximumNames = 1 << 12

    /// Collects the keys; `build` sorts them into an index.
    public struct Builder {
        fileprivate var bytes: [UInt8] = []
        fileprivate var entries: [Entry] = []

        public init() {}

        /// Adds a city's keys: `primary` is its normalized name; `alternates` its other normalized names, and
        /// `spellings` how each is written, when its key gives it (missing ones are `.stored`).
        public mutating func add(
            cityIndex: Int, primary: String, alternates: some Sequence<String>, spellings: ArraySlice<SearchKey.Spelling> = []
        ) {
            add(primary, cityIndex: cityIndex, name: 0, spelling: .stored)
            for (offset, key) in alternates.enumerated() {
                let spelling = offset < spellings.count ? spellings[spellings.startIndex + offset] : .stored
                add(key, cityIndex: cityIndex, name: offset + 1, spelling: spelling)
            }
        }

        private mutating func add(_ key: String, cityIndex: Int, name: Int, spelling: SearchKey.Spelling) {
            guard !key.isEmpty, key.utf8.count <= Int(UInt16.max), name < NameIndex.maximumNames else { return }
            let alternate = name > 0
            // A zero byte (which no key holds) before each key: a word's entry finds its whole key by it.
            bytes.append(0)
            let start = bytes.count
            bytes.append(contentsOf: key.utf8)
            // Each word tail is a suffix of the key's bytes: no copy.
            var offset = 0
            for (position, byte) in key.utf8.enumerated() where position == 0 || byte == UInt8(ascii: " ") {
                let tailStart = position == 0 ? 0 : position + 1
                guard tailStart < key.utf8.count else { continue }
                let kind = (alternate ? 2 : 0) + (offset == 0 ? 0 : 1)
                entries.append(
                    Entry(
                        start: Int32(start + tailStart), length: UInt16(key.utf8.count - tailStart),
                        tag: UInt16(name << 4 | Int(spelling.rawValue) << 2 | kind),
                        city: Int32(cityIndex)))
                offset += 1
            }
        }

        /// The index. `prominence[c]` orders city c among matches of one tier (larger first; equal ones by index);
        /// answers hold at most `maximumLimit` cities; ranges longer than `heavyRange` entries are answered at build
        /// time.
        public func build(prominence: [Float], maximumLimit: Int, heavyRange: Int = 2048) -> NameIndex {
            NameIndex(bytes: bytes, unsorted: entries, prominence: prominence, maximumLimit: maximumLimit, heavyRange: heavyRange)
        }
    }

    private let bytes: [UInt8]
    private let entries: [Entry]
    private let prominence: [Float]
    private let maximumLimit: Int
    private let heavyRange: Int
    /// Ranked answers (entry positions, best first) of the queries whose range is longer than `heavyRange`.
    private var heavyAnswers: [[UInt8]: [Int32]] = [:]

    private init(bytes: [UInt8], unsorted: [Entry], prominence: [Float], maximumLimit: Int, heavyRange: Int) {
        self.bytes = bytes
        self.prominence = prominence
        self.maximumLimit = maximumLimit
        self.heavyRange = max(1, heavyRange)
        self.entries = bytes.withUnsafeBufferPointer { buffer in
            unsorted.sorted { left, right in
                let order = Self.compare(buffer, left, right)
                if order != 0 { return order < 0 }
                return left.city != right.city ? left.city < right.city : left.tag < right.tag
            }
        }
        var answers: [[UInt8]: [Int32]] = [:]
        let index = self
        bytes.withUnsafeBufferPointer { buffer in
            index.collectHeavyAnswers(buffer, range: 0..<index.entries.count, depth: 0, into: &answers)
        }
        heavyAnswers = answers
    }

    /// Each city matching the (already normalized) query once, with its best match, ranked: by tier, then by
    /// the city's prominence as its match weighs it (`Weight`); at most `limit`.
    public func search(_ query: String, limit: Int) -> [Match] {
        let query = Array(query.utf8)
        guard !query.isEmpty, limit > 0 else { return [] }
        let positions: [Int32] = bytes.withUnsafeBufferPointer { buffer in
            let range = matchingRange(buffer, query)
            if range.count > heavyRange, let answer = heavyAnswers[query] { return Array(answer.prefix(limit)) }
            return ranked(buffer, range: range, queryLength: query.count, limit: limit)
        }
        return positions.map { position in
            let entry = entries[Int(position)]
            let end = Int(entry.start) + Int(entry.length)
            return Match(
                cityIndex: Int(entry.city),
                key: String(decoding: bytes[Int(entry.start)..<end], as: UTF8.self),
                tier: Self.code(entry, queryLength: query.count) >> 2,
                alternate: entry.kind >= 2,
                name: entry.name,
                spelling: entry.kind >= 2 && entry.spelling != .stored
                    ? SearchKey.spelling(ofKey: String(decoding: bytes[wholeKeyStart(entry)..<end], as: UTF8.self), by: entry.spelling)
                    : nil
            )
        }
    }

    /// Where the key an entry is a word of starts (the entry's own start for a whole key).
    private func wholeKeyStart(_ entry: Entry) -> Int {
        var start = Int(entry.start)
        while start > 0, bytes[start - 1] != 0 { start -= 1 }
        return start
    }

    // MARK: - Ranking

    /// How much of a city's prominence its match counts, the heaviest first.
    public enum Weight: Int, Sendable {
        /// The query is the city's own name, tenfold: a town typed in full comes before the larger cities whose
        /// names it begins ("bath": Bath before Bathinda), and a village whose name is a short query does not
        /// come before them all ("par": Paris before Par, Cornwall).
        case ownName
        /// The city's own name, or a later word of it, starts with the query.
        case own
        /// The query is a whole alternate name of three letters or more ("roma", "wien"): as strong a sign as an own
        /// name begun.
        case alternateName
        /// An alternate name, or a later word of one, starts with the query, a tenth: GeoNames' alternates include
        /// transliterations from other scripts ("beroorizonchi" for Belo Horizonte), so a large city with hundreds of
        /// them came before the cities whose own names were typed ("ber": Beirut before Berlin, Bergen and Bern).
        /// A well-known alternate still leads where no own name competes ("firen": Florence).
        case alternate

        public func of(_ prominence: Float) -> Float {
            switch self {
            case .ownName: prominence * 10
            case .own, .alternateName: prominence
            case .alternate: prominence * 0.1
            }
        }
    }

    /// Tier and weight in one number, smaller better: (tier << 2) | weight.
    private static func code(_ entry: Entry, queryLength: Int) -> Int {
        let word = entry.kind & 1 == 1
        let alternate = entry.kind >= 2
        // Two letters typed begin a name far more often than they are one: a whole alternate that short counts as
        // one begun ("Pa", an old name of Chongqing, led Paris for "pa"; "hu" led Shanghai), unless written as a code
        // ("LA", "NY", "HK"). Lengths are bytes: two letters of a script outside ASCII ("東京") are a name whole.
        let whole = !word && Int(entry.length) == queryLength && (!alternate || queryLength > 2 || entry.spelling == .code)
        let weight: Weight = alternate ? (whole ? .alternateName : .alternate) : (whole ? .ownName : .own)
        return (word ? 1 : 0) << 2 | weight.rawValue
    }

    /// The best `limit` cities of a range, as the positions of their best entries.
    private func ranked(_ buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>, queryLength: Int, limit: Int) -> [Int32] {
        // Per city, the best tier wins, then the heaviest weight; on a tie the first entry.
        var best: [Int32: (code: Int, position: Int32)] = [:]
        best.reserveCapacity(min(range.count, 1 << 16))
        for position in range {
            let entry = entries[position]
            if entry.spelling == .code, Int(entry.length) != queryLength { continue }  // a code matches typed whole
            let code = Self.code(entry, queryLength: queryLength)
            if let current = best[entry.city], current.code <= code { continue }
            best[entry.city] = (code, Int32(position))
        }
        // Sort key: tier, then the weighed prominence, larger first (a positive Float's bits order as it does), then
        // the city. Only the best `limit` are kept, in order: most of a range's cities fall behind the last kept after
        // one comparison, where sorting them all was a fifth of a search.
        var top: [(key: UInt64, city: Int32, position: Int32)] = []
        top.reserveCapacity(limit + 1)
        for (city, match) in best {
            let weighed = Weight(rawValue: match.code & 3)!.of(prominence[Int(city)])
            let candidate = (key: UInt64(match.code >> 2) << 32 | UInt64(~weighed.bitPattern), city: city, position: match.position)
            if top.count == limit, let last = top.last, (last.key, last.city) < (candidate.key, candidate.city) { continue }
            var low = 0
            var high = top.count
            while low < high {
                let middle = (low + high) / 2
                if (top[middle].key, top[middle].city) < (candidate.key, candidate.city) { low = middle + 1 } else { high = middle }
            }
            top.insert(candidate, at: low)
            if top.count > limit { top.removeLast() }
        }
        return top.map(\.position)
    }

    /// Answers every query whose range is longer than `heavyRange` (all of them start the range's entries, so
    /// walking the ranges by their next byte finds them).
    private func collectHeavyAnswers(
        _ buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>, depth: Int, into answers: inout [[UInt8]: [Int32]]
    ) {
        guard range.count > heavyRange else { return }
        if depth > 0 {
            let first = entries[range.lowerBound]
            let prefix = Array(buffer[Int(first.start)..<Int(first.start) + depth])
            answers[prefix] = ranked(buffer, range: range, queryLength: depth, limit: maximumLimit)
        }
        // Entries exactly `depth` bytes long come first; the rest split by their byte at `depth`.
        var start = range.lowerBound
        while start < range.upperBound, Int(entries[start].length) <= depth { start += 1 }
        while start < range.upperBound {
            let byte = buffer[Int(entries[start].start) + depth]
            var end = start + 1
            while end < range.upperBound, buffer[Int(entries[end].start) + depth] == byte { end += 1 }
            collectHeavyAnswers(buffer, range: start..<end, depth: depth + 1, into: &answers)
            start = end
        }
    }

    // MARK: - Sorted table

    /// The entries whose key starts with `query`.
    private func matchingRange(_ buffer: UnsafeBufferPointer<UInt8>, _ query: [UInt8]) -> Range<Int> {
        query.withUnsafeBufferPointer { query in
            let lower = partition { Self.comparePrefix(buffer, $0, query) < 0 }
            let upper = partition { Self.comparePrefix(buffer, $0, query) <= 0 }
            return lower..<max(lower, upper)
        }
    }

    /// The first position where `before` stops holding (it holds for a prefix of the sorted entries).
    private func partition(_ before: (Entry) -> Bool) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if before(entries[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The entry's key cut to the query's length, compared with the query: <0, 0 (starts with it) or >0.
    private static func comparePrefix(_ buffer: UnsafeBufferPointer<UInt8>, _ entry: Entry, _ query: UnsafeBufferPointer<UInt8>) -> Int {
        let length = min(Int(entry.length), query.count)
        let order = memcmp(buffer.baseAddress! + Int(entry.start), query.baseAddress!, length)
        if order != 0 { return Int(order) }
        return Int(entry.length) < query.count ? -1 : 0
    }

    private static func compare(_ buffer: UnsafeBufferPointer<UInt8>, _ left: Entry, _ right: Entry) -> Int {
        let length = min(Int(left.length), Int(right.length))
        let order = memcmp(buffer.baseAddress! + Int(left.start), buffer.baseAddress! + Int(right.start), length)
        if order != 0 { return Int(order) }
        return Int(left.length) - Int(right.length)
    }
}
