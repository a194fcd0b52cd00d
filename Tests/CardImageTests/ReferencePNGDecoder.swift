import Zlib

@testable import CardImage

/// Reads back what `PNGEncoder` writes (8-bit grayscale, one or more IDAT chunks), checking every CRC.
enum ReferencePNGDecoder {
    struct Chunk {
        let type: String
        let data: [UInt8]
    }

    static func chunks(_ png: [UInt8]) throws -> [Chunk] {
        guard Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { throw failure("bad signature") }
        var chunks: [Chunk] = []
        var offset = 8
        while offset < png.count {
            guard offset + 12 <= png.count else { throw failure("truncated chunk") }
            let length = Int(uint32(png, offset))
            guard offset + 12 + length <= png.count else { throw failure("truncated chunk data") }
            let typeAndData = Array(png[offset + 4..<offset + 8 + length])
            guard uint32(png, offset + 8 + length) == Zlib.crc32(typeAndData) else { throw failure("bad CRC") }
            chunks.append(Chunk(type: String(decoding: typeAndData.prefix(4), as: UTF8.self), data: Array(typeAndData.dropFirst(4))))
            offset += 12 + length
        }
        return chunks
    }

    static func decode(_ png: [UInt8]) throws -> GrayImage {
        let chunks = try chunks(png)
        guard chunks.first?.type == "IHDR", chunks.last?.type == "IEND", let header = chunks.first?.data, header.count == 13 else {
            throw failure("IHDR must come first and IEND last")
        }
        let width = Int(uint32(header, 0))
        let height = Int(uint32(header, 4))
        guard Array(header[8...]) == [8, 0, 0, 0, 0] else { throw failure("not 8-bit grayscale") }
        let raw = try Zlib.inflate(chunks.filter { $0.type == "IDAT" }.flatMap(\.data), format: .zlib, limit: 1 << 26)
        guard raw.count == (width + 1) * height else { throw failure("wrong amount of image data") }
        var image = GrayImage(width: width, height: height)
        for y in 0..<height {
            let filter = raw[y * (width + 1)]
            for x in 0..<width {
                let value = raw[y * (width + 1) + 1 + x]
                let a = x > 0 ? Int(image[x - 1, y]) : 0
                let b = y > 0 ? Int(image[x, y - 1]) : 0
                let c = x > 0 && y > 0 ? Int(image[x - 1, y - 1]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let pa = abs(p - a)
                    let pb = abs(p - b)
                    let pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw failure("bad filter \(filter)")
                }
                image[x, y] = value &+ UInt8(predictor)
            }
        }
        return image
    }

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    static func failure(_ message: String) -> Zlib.Failure {
        Zlib.Failure(description: message)
    }
}
