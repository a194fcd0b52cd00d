import Foundation

/// A font's glyphs as alpha bitmaps at one pixel size, in the format `scripts/make-card-glyphs.py` writes.
public struct GlyphAtlas: Sendable {
    public struct Glyph: Sendable, Equatable {
        /// How far the pen moves after this glyph, in pixels.
        public let advance: Double
        /// From the pen to the bitmap's first column.
        public let left: Int
        /// From the baseline up to the bitmap's first row.
        public let top: Int
        public let width: Int
        public let height: Int
        /// Coverage 0…255, row by row.
        public let alpha: [UInt8]
    }

    public let pixelSize: Int
    public let ascent: Int
    public let descent: Int
    /// Height of a capital letter above the baseline, for centring text by what the eye sees.
    public let capHeight: Int
    let glyphs: [Unicode.Scalar: Glyph]

    /// Drawn for characters the atlas lacks (an emoji, a Greek letter): an empty box, like a browser's.
    static let placeholderKey: Unicode.Scalar = "\u{FFFD}"

    public init(bytes: [UInt8]) throws(GlyphAtlasError) {
        var reader = ByteReader(bytes: bytes)
        guard try reader.take(4) == Array("TCG1".utf8) else { throw .malformed("not a Trove glyph atlas") }
        pixelSize = Int(try reader.uint16())
        ascent = Int(try reader.int16())
        descent = Int(try reader.int16())
        let count = Int(try reader.uint16())
        var glyphs: [Unicode.Scalar: Glyph] = [:]
        for _ in 0..<count {
            guard let scalar = Unicode.Scalar(try reader.uint32()) else { throw .malformed("bad code point") }
            let advance = Double(try reader.uint16()) / 64
            let left = Int(try reader.int16())
            let top = Int(try reader.int16())
            let width = Int(try reader.uint16())
            let height = Int(try reader.uint16())
            let alpha = try reader.take(width * height)
            glyphs[scalar] = Glyph(advance: advance, left: left, top: top, width: width, height: height, alpha: alpha)
        }
        guard reader.isAtEnd, glyphs[" "] != nil, let capital = glyphs["H"] else { throw .malformed("incomplete atlas") }
        capHeight = capital.top
        glyphs[Self.placeholderKey] = Self.box(width: pixelSize / 2, height: capital.top, stroke: max(1, pixelSize / 16))
        self.glyphs = glyphs
    }

    /// The atlas shipped with this module (Resources/glyphs.bin).
    public static func bundled() throws -> GlyphAtlas {
        guard let url = bundledURL else { throw GlyphAtlasError.missing }
        return try GlyphAtlas(bytes: Array(try Data(contentsOf: url)))
    }

    static var bundledURL: URL? {
        Bundle.module.url(forResource: "glyphs", withExtension: "bin", subdirectory: "Resources")
    }

    func glyph(_ scalar: Unicode.Scalar) -> Glyph {
        glyphs[scalar] ?? glyphs[Self.placeholderKey]!
    }

    /// The text as scalars the atlas can draw: whitespace collapsed to single spaces (as HTML shows it),
    /// invisible characters dropped, accented letters it lacks drawn without their accent, anything else a box.
    func drawable(_ text: String) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            let properties = scalar.properties
            if properties.isWhitespace {
                if let last = result.last, last != " " { result.append(" ") }
            } else if glyphs[scalar] != nil {
                result.append(scalar)
            } else if [.format, .control, .nonspacingMark, .enclosingMark, .spacingMark].contains(properties.generalCategory) {
                continue
            } else if let base = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars.first, glyphs[base] != nil {
                result.append(base)
            } else {
                result.append(Self.placeholderKey)
            }
        }
        if result.last == " " { result.removeLast() }
        return result
    }

    static func box(width: Int, height: Int, stroke: Int) -> Glyph {
        var alpha = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width where x < stroke || y < stroke || x >= width - stroke || y >= height - stroke {
                alpha[y * width + x] = 255
            }
        }
        let gap = stroke * 2
        return Glyph(advance: Double(width + 2 * gap), left: gap, top: height, width: width, height: height, alpha: alpha)
    }
}

public enum GlyphAtlasError: Error, Equatable, CustomStringConvertible {
    case missing
    case malformed(String)

    public var description: String {
        switch self {
        case .missing: "The card glyphs (glyphs.bin) are missing: reinstall or rebuild Trove."
        case .malformed(let reason): "The card glyphs (glyphs.bin) are damaged (\(reason)): reinstall or rebuild Trove."
        }
    }
}

/// Little-endian fields from a byte array; running past the end is an error, not a crash.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func take(_ count: Int) throws(GlyphAtlasError) -> [UInt8] {
        guard count >= 0, offset + count <= bytes.count else { throw .malformed("truncated") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func uint16() throws(GlyphAtlasError) -> UInt16 {
        let b = try take(2)
        return UInt16(b[0]) | UInt16(b[1]) << 8
    }

    mutating func int16() throws(GlyphAtlasError) -> Int16 {
        Int16(bitPattern: try uint16())
    }

    mutating func uint32() throws(GlyphAtlasError) -> UInt32 {
        let b = try take(4)
        return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }
}
