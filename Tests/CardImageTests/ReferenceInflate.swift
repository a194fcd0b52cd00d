/// A small, independent inflate for checking the encoder: stored and fixed-Huffman blocks only
/// (all the encoder writes), following RFC 1951 step by step rather than sharing the encoder's tables.
struct ReferenceInflate {
    struct Failure: Error, CustomStringConvertible { let description: String }

    private let input: [UInt8]
    private var bitPosition = 0

    static func zlib(_ stream: [UInt8]) throws -> [UInt8] {
        guard stream.count >= 6, (Int(stream[0]) << 8 | Int(stream[1])) % 31 == 0, stream[0] & 0x0F == 8 else {
            throw Failure(description: "bad zlib header")
        }
        var inflater = ReferenceInflate(input: Array(stream.dropFirst(2)))
        let output = try inflater.inflate()
        let tail = Array(stream.suffix(4))
        let adler = UInt32(tail[0]) << 24 | UInt32(tail[1]) << 16 | UInt32(tail[2]) << 8 | UInt32(tail[3])
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in output {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        guard adler == b << 16 | a else { throw Failure(description: "Adler-32 mismatch") }
        return output
    }

    init(input: [UInt8]) {
        self.input = input
    }

    mutating func inflate() throws -> [UInt8] {
        var output: [UInt8] = []
        var final = false
        while !final {
            final = try bits(1) == 1
            switch try bits(2) {
            case 0:
                bitPosition = (bitPosition + 7) / 8 * 8
                let length = try bits(16), complement = try bits(16)
                guard length == ~complement & 0xFFFF else { throw Failure(description: "bad stored length") }
                for _ in 0..<length { output.append(UInt8(try bits(8))) }
            case 1:
                try inflateFixedBlock(into: &output)
            default:
                throw Failure(description: "unsupported block type")
            }
        }
        return output
    }

    private mutating func bits(_ count: Int) throws -> Int {
        var value = 0
        for i in 0..<count {
            let byte = bitPosition / 8
            guard byte < input.count else { throw Failure(description: "ran out of input") }
            value |= Int(input[byte] >> UInt8(bitPosition % 8) & 1) << i
            bitPosition += 1
        }
        return value
    }

    /// Huffman codes are packed most significant bit first.
    private mutating func code(_ count: Int) throws -> Int {
        var value = 0
        for _ in 0..<count { value = value << 1 | (try bits(1)) }
        return value
    }

    private mutating func fixedLiteralLength() throws -> Int {
        let seven = try code(7)
        if seven <= 0b0010111 { return 256 + seven }
        let eight = seven << 1 | (try bits(1))
        if (0b0011_0000...0b1011_1111).contains(eight) { return eight - 0b0011_0000 }
        if (0b1100_0000...0b1100_0111).contains(eight) { return 280 + eight - 0b1100_0000 }
        let nine = eight << 1 | (try bits(1))
        return 144 + nine - 0b1_1001_0000
    }

    private mutating func inflateFixedBlock(into output: inout [UInt8]) throws {
        let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        while true {
            let symbol = try fixedLiteralLength()
            if symbol < 256 { output.append(UInt8(symbol)); continue }
            if symbol == 256 { return }
            guard symbol - 257 < lengthBase.count else { throw Failure(description: "bad length symbol") }
            let length = lengthBase[symbol - 257] + (try bits(lengthExtra[symbol - 257]))
            let distanceCode = try code(5)
            guard distanceCode < 30 else { throw Failure(description: "bad distance code") }
            // Distance codes 0-3 are 1-4; after that each pair of codes doubles the range.
            let extra = max(0, distanceCode / 2 - 1)
            let base = distanceCode < 4 ? distanceCode + 1 : (2 + distanceCode % 2) << extra + 1
            let distance = base + (try bits(extra))
            guard distance <= output.count else { throw Failure(description: "distance too far back") }
            for _ in 0..<length { output.append(output[output.count - distance]) }
        }
    }
}
