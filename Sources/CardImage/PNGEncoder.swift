import Zlib

/// Encodes a `GrayImage` as a PNG: 8-bit grayscale (colour type 0), one IDAT, no interlacing.
public enum PNGEncoder {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static func encode(_ image: GrayImage) -> [UInt8] {
        var header: [UInt8] = []
        header += bigEndian(UInt32(image.width))
        header += bigEndian(UInt32(image.height))
        header += [8, 0, 0, 0, 0]  // bit depth 8, grayscale, deflate, adaptive filtering, no interlace
        var png = signature
        png += chunk("IHDR", header)
        png += chunk("IDAT", Zlib.deflate(filtered(image), format: .zlib, level: 6))
        png += chunk("IEND", [])
        return png
    }

    /// Each row prefixed with the filter (None, Sub or Up) that leaves the smallest sum of differences,
    /// the usual heuristic: Up turns a row like the one above into zeros, Sub a flat row.
    static func filtered(_ image: GrayImage) -> [UInt8] {
        let width = image.width
        let stride = width + 1
        var out = [UInt8](repeating: 0, count: stride * image.height)
        image.pixels.withUnsafeBufferPointer { pixels in
            out.withUnsafeMutableBufferPointer { out in
                for y in 0..<image.height {
                    let row = y * width
                    let target = y * stride + 1
                    let above = y > 0 ? row - width : row  // the first row has no row above: Up is then the same as None
                    var none = 0
                    var sub = 0
                    var up = 0
                    for x in 0..<width {
                        let value = pixels[row + x]
                        none += cost(value)
                        sub += cost(value &- (x > 0 ? pixels[row + x - 1] : 0))
                        up += cost(y > 0 ? value &- pixels[above + x] : value)
                    }
                    if up <= sub, up <= none, y > 0 {
                        out[target - 1] = 2
                        for x in 0..<width { out[target + x] = pixels[row + x] &- pixels[above + x] }
                    } else if sub < none {
                        out[target - 1] = 1
                        out[target] = pixels[row]
                        for x in 1..<max(width, 1) { out[target + x] = pixels[row + x] &- pixels[row + x - 1] }
                    } else {
                        for x in 0..<width { out[target + x] = pixels[row + x] }
                    }
                }
            }
        }
        return out
    }

    /// A filtered byte read as a signed difference: small either way is cheap to compress.
    @inline(__always) static func cost(_ byte: UInt8) -> Int {
        Int(Int8(bitPattern: byte).magnitude)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(Zlib.crc32(typeAndData))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
