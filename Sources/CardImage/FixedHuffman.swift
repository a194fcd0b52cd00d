/// Writes bits least-significant first, as deflate packs them.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var used = 0

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ bits: UInt32, count: Int) {
        buffer |= UInt64(bits) << UInt64(used)
        used += count
        while used >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            used -= 8
        }
    }

    /// Pads the last byte with zero bits and returns everything written.
    mutating func finish() -> [UInt8] {
        if used > 0 { write(0, count: 8 - used) }
        return bytes
    }
}

/// Deflate's fixed Huffman code (RFC 1951 §3.2.6) and its length and distance tables (§3.2.5).
enum FixedHuffman {
    /// Literal/length symbol → (code already bit-reversed for `BitWriter`, bit count).
    static let literalCodes: [(code: UInt32, length: Int)] = (0..<288).map { symbol in
        switch symbol {
        case 0...143: (reversed(UInt32(0x30 + symbol), length: 8), 8)
        case 144...255: (reversed(UInt32(0x190 + symbol - 144), length: 9), 9)
        case 256...279: (reversed(UInt32(symbol - 256), length: 7), 7)
        default: (reversed(UInt32(0xC0 + symbol - 280), length: 8), 8)
        }
    }

    static let lengthBases: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtraBits: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBases: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
        1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtraBits: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// Distance code → its 5-bit code, bit-reversed.
    static let distanceCodes: [UInt32] = (0..<30).map { reversed(UInt32($0), length: 5) }

    /// Match length 3…258 → index into the length tables (symbol 257 + index).
    static let lengthIndex: [Int] = (0...258).map { length in
        length < 3 ? 0 : lengthBases.lastIndex { $0 <= length } ?? 0
    }

    static func reversed(_ code: UInt32, length: Int) -> UInt32 {
        var result: UInt32 = 0
        for bit in 0..<length where code & (1 << UInt32(bit)) != 0 { result |= 1 << UInt32(length - 1 - bit) }
        return result
    }

    static func writeLiteral(_ symbol: Int, to writer: inout BitWriter) {
        let entry = literalCodes[symbol]
        writer.write(entry.code, count: entry.length)
    }

    static func writeMatch(length: Int, distance: Int, to writer: inout BitWriter) {
        let index = lengthIndex[length]
        writeLiteral(257 + index, to: &writer)
        writer.write(UInt32(length - lengthBases[index]), count: lengthExtraBits[index])
        var code = 0
        while code + 1 < distanceBases.count && distanceBases[code + 1] <= distance { code += 1 }
        writer.write(distanceCodes[code], count: 5)
        writer.write(UInt32(distance - distanceBases[code]), count: distanceExtraBits[code])
    }
}
