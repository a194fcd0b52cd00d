/// Raw DEFLATE decompression (RFC 1951): stored, fixed-Huffman and dynamic-Huffman blocks, with an output
/// limit so a small archive cannot expand into gigabytes.
public struct Inflate {
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    private let input: [UInt8]
    private var position = 0  // in bits
    private var output: [UInt8] = []
    private let limit: Int

    public static func decompress(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var inflater = Inflate(input: input, limit: limit)
        return try inflater.run()
    }

    init(input: [UInt8], limit: Int) {
        self.input = input
        self.limit = limit
    }

    mutating func run() throws(Failure) -> [UInt8] {
        var last = false
        while !last {
            last = try bits(1) == 1
            switch try bits(2) {
            case 0: try stored()
            case 1: try compressed(literals: Self.fixedLiterals, distances: Self.fixedDistances)
            case 2:
                let (literals, distances) = try dynamicTables()
                try compressed(literals: literals, distances: distances)
            default: throw Failure(description: "a reserved block type")
            }
        }
        return output
    }

    mutating func bits(_ count: Int) throws(Failure) -> Int {
        var value = 0
        for index in 0..<count {
            let byte = position >> 3
            guard byte < input.count else { throw Failure(description: "the data ends early") }
            value |= Int((input[byte] >> UInt8(position & 7)) & 1) << index
            position += 1
        }
        return value
    }

    mutating func stored() throws(Failure) {
        position = (position + 7) & ~7
        let length = try bits(16), complement = try bits(16)
        guard length == ~complement & 0xFFFF else { throw Failure(description: "a stored block's length is corrupt") }
        let start = position >> 3
        guard start + length <= input.count else { throw Failure(description: "the data ends early") }
        try append(contentsOf: input[start..<start + length])
        position += length * 8
    }

    mutating func append(contentsOf bytes: ArraySlice<UInt8>) throws(Failure) {
        guard output.count + bytes.count <= limit else { throw Failure(description: "the file expands beyond \(limit) bytes") }
        output.append(contentsOf: bytes)
    }

    /// A canonical Huffman code: symbols by code length, as RFC 1951 §3.2.2 builds it.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<16 { offsets[length] = offsets[length - 1] + counts[length - 1] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length > 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }
    }

    mutating func decode(_ code: Huffman) throws(Failure) -> Int {
        var value = 0, first = 0, index = 0
        for length in 1..<16 {
            value |= try bits(1)
            let count = code.counts[length]
            if value - first < count { return code.symbols[index + value - first] }
            index += count
            first = (first + count) << 1
            value <<= 1
        }
        throw Failure(description: "an invalid Huffman code")
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                               4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let fixedLiterals = Huffman(lengths: [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
        + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8))
    static let fixedDistances = Huffman(lengths: [Int](repeating: 5, count: 30))

    mutating func compressed(literals: Huffman, distances: Huffman) throws(Failure) {
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                guard output.count < limit else { throw Failure(description: "the file expands beyond \(limit) bytes") }
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < Self.lengthBase.count else { throw Failure(description: "an invalid length code") }
                let length = Self.lengthBase[index] + (try bits(Self.lengthExtra[index]))
                let distanceSymbol = try decode(distances)
                guard distanceSymbol < Self.distanceBase.count else { throw Failure(description: "an invalid distance code") }
                let distance = Self.distanceBase[distanceSymbol] + (try bits(Self.distanceExtra[distanceSymbol]))
                guard distance <= output.count else { throw Failure(description: "a distance reaches before the start") }
                guard output.count + length <= limit else { throw Failure(description: "the file expands beyond \(limit) bytes") }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
    }

    mutating func dynamicTables() throws(Failure) -> (Huffman, Huffman) {
        let literalCount = try bits(5) + 257, distanceCount = try bits(5) + 1, codeLengthCount = try bits(4) + 4
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengths[order[index]] = try bits(3) }
        let lengthCode = Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try decode(lengthCode)
            switch symbol {
            case 0...15: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw Failure(description: "a repeat with nothing before it") }
                lengths += [Int](repeating: previous, count: 3 + (try bits(2)))
            case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
            default: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw Failure(description: "code lengths overrun") }
        return (Huffman(lengths: Array(lengths[..<literalCount])), Huffman(lengths: Array(lengths[literalCount...])))
    }
}
