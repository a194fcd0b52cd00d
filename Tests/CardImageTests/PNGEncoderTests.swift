import Testing
import Zlib

@testable import CardImage

@Suite struct PNGEncoderTests {
    @Test func checksumsMatchPublishedValues() {
        #expect(Zlib.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Zlib.crc32(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(Zlib.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(Zlib.adler32([UInt8](repeating: 255, count: 100_000)) == slowAdler([UInt8](repeating: 255, count: 100_000)))
    }

    @Test(arguments: ["empty", "zeros", "text", "noise", "long runs"])
    func deflateRoundTripsInEveryFormat(sample: String) throws {
        let input = Self.sample(sample)
        let compressed = Zlib.deflate(input, format: .zlib)
        #expect(compressed.first == 0x78, "a zlib header")
        #expect(try Zlib.inflate(compressed, format: .zlib, limit: input.count) == input)
        let gzip = Zlib.deflate(input, format: .gzip)
        #expect(Array(gzip.prefix(2)) == [0x1F, 0x8B])
        #expect(try Zlib.inflate(gzip, format: .gzip, limit: input.count) == input)
    }

    @Test func deflateCompressesRuns() {
        #expect(Zlib.deflate([UInt8](repeating: 0, count: 750_000), format: .raw).count < 8_000)
    }

    @Test func encodesAValidGrayscalePNG() throws {
        var image = GrayImage(width: 37, height: 23)
        for y in 0..<image.height {
            for x in 0..<image.width { image[x, y] = UInt8((x * 7 + y * y * 3) % 256) }
        }
        let png = PNGEncoder.encode(image)
        #expect(Array(png.prefix(8)) == PNGEncoder.signature)
        let chunks = try ReferencePNGDecoder.chunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
        #expect(chunks[0].data == [0, 0, 0, 37, 0, 0, 0, 23, 8, 0, 0, 0, 0])
        #expect(try ReferencePNGDecoder.decode(png) == image)
    }

    static func sample(_ name: String) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        switch name {
        case "empty": return []
        case "zeros": return [UInt8](repeating: 0, count: 70_000)
        case "text": return Array(String(repeating: "Honour thy error as a hidden intention. Use an old idea. ", count: 900).utf8)
        case "noise": return (0..<40_000).map { _ in next() }
        default: return (0..<3_000).flatMap { i in [UInt8](repeating: UInt8(i % 7), count: Int(next()) * 2 + 1) }
        }
    }

    func slowAdler(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}
