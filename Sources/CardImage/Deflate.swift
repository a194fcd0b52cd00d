/// Deflate (RFC 1951) in one fixed-Huffman block, with LZ77 matches found through a hash chain, and the zlib
/// wrapper (RFC 1950) PNG puts around it.
///
/// Fixed codes keep the encoder small. The images it packs are mostly long runs (the black background, rows
/// that PNG's Up filter turns to zeros), where matches, not a tuned code table, do the work.
public enum Deflate {
    static let windowSize = 32768
    static let minimumMatch = 3
    static let maximumMatch = 258
    /// How many earlier positions with the same 3-byte hash are tried: more packs text a little tighter, slower.
    static let maximumChain = 48
    static let hashBits = 15
    static let maximumIndexedMatch = 32

    /// A zlib stream: header, deflate data, Adler-32 of the input.
    public static func zlib(_ input: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x5E]  // 32 KB window, "fast" level; (0x785E % 31 == 0) as the header check requires
        out += compress(input)
        let adler = Adler32.checksum(input)
        out += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return out
    }

    /// Raw deflate data (no zlib header).
    public static func compress(_ input: [UInt8]) -> [UInt8] {
        var writer = BitWriter(reservingCapacity: input.count / 8 + 64)
        writer.write(1, count: 1)  // BFINAL: the only block
        writer.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        input.withUnsafeBufferPointer { data in
            var chains = HashChains(hashBits: hashBits, windowSize: windowSize)
            var position = 0
            while position < data.count {
                let match = chains.longestMatch(at: position, in: data)
                chains.insert(position, in: data)
                if match.length >= minimumMatch {
                    FixedHuffman.writeMatch(length: match.length, distance: match.distance, to: &writer)
                    // Like zlib's fast levels, long matches (runs of background) are not indexed inside: much
                    // faster, and the run's start is still found.
                    if match.length <= maximumIndexedMatch {
                        for skipped in position + 1 ..< position + match.length { chains.insert(skipped, in: data) }
                    }
                    position += match.length
                } else {
                    FixedHuffman.writeLiteral(Int(data[position]), to: &writer)
                    position += 1
                }
            }
        }
        FixedHuffman.writeLiteral(256, to: &writer)  // end of block
        return writer.finish()
    }
}

/// For each 3-byte hash, the most recent position it was seen at, and for each position the one before it.
struct HashChains {
    private var head: [Int32]
    private var previous: [Int32]
    private let mask: Int
    private let hashMask: Int

    init(hashBits: Int, windowSize: Int) {
        head = Array(repeating: -1, count: 1 << hashBits)
        previous = Array(repeating: -1, count: windowSize)
        mask = windowSize - 1
        hashMask = (1 << hashBits) - 1
    }

    private func hash(_ position: Int, _ data: UnsafeBufferPointer<UInt8>) -> Int {
        (Int(data[position]) << 10 ^ Int(data[position + 1]) << 5 ^ Int(data[position + 2])) & hashMask
    }

    mutating func insert(_ position: Int, in data: UnsafeBufferPointer<UInt8>) {
        guard position + 2 < data.count else { return }
        let h = hash(position, data)
        previous[position & mask] = head[h]
        head[h] = Int32(position)
    }

    func longestMatch(at position: Int, in data: UnsafeBufferPointer<UInt8>) -> (length: Int, distance: Int) {
        guard position + Deflate.minimumMatch <= data.count else { return (0, 0) }
        let limit = min(Deflate.maximumMatch, data.count - position)
        var best = (length: 0, distance: 0)
        var candidate = Int(head[hash(position, data)])
        var tries = Deflate.maximumChain
        // Strictly inside the window: a slot older than that may already hold a newer position.
        while candidate >= 0, position - candidate < Deflate.windowSize, tries > 0 {
            if data[candidate + best.length] == data[position + best.length] || best.length == 0 {
                var length = 0
                while length < limit, data[candidate + length] == data[position + length] { length += 1 }
                if length > best.length {
                    best = (length, position - candidate)
                    if length == limit { break }
                }
            }
            candidate = Int(previous[candidate & mask])
            tries -= 1
        }
        return best
    }
}
