import Foundation
import Testing

@testable import CardImage

@Suite struct CardRendererTests {
    static let renderer = CardRenderer(atlas: try! GlyphAtlas.bundled())
    static let caption = "Oblique Strategies · Edition 2"
    static let prose = """
        When you are stuck, list every assumption you have made about the piece, then quietly reverse the one you \
        trust most. Work with whatever breaks. If nothing does, go for a long walk, buy something you do not need, \
        and come back to the studio pretending it belongs to somebody else entirely.
        """

    @Test func aShortCardIsASmallPNGOfTheOpenGraphSize() throws {
        let png = Self.renderer.png(text: "Honour thy error as a hidden intention", caption: Self.caption)
        #expect(png.count < 60_000, "\(png.count) bytes")
        let image = try ReferencePNGDecoder.decode(png)
        #expect(image.width == 1200 && image.height == 630)
        #expect(image == Self.renderer.image(text: "Honour thy error as a hidden intention", caption: Self.caption))
        let ink = try #require(Self.inkBounds(image, rows: 0..<540))
        #expect(ink.maxY - ink.minY > 100, "large text")
        #expect(abs((ink.minX + ink.maxX) / 2 - 600) < 12, "centred: \(ink)")
        #expect(Self.inkBounds(image, rows: 560..<630) != nil, "the caption")
    }

    @Test func aLongCardStaysInsideTheImage() throws {
        let text = String(Self.prose.prefix(280))
        let png = Self.renderer.png(text: text, caption: "Oblique Strategies · My card")
        #expect(png.count < 60_000, "\(png.count) bytes")
        let image = try ReferencePNGDecoder.decode(png)
        let ink = try #require(Self.inkBounds(image, rows: 0..<550))
        #expect(ink.minX >= 70 && ink.maxX <= 1130 && ink.minY >= 40 && ink.maxY <= 540, "\(ink)")

        let unbroken = String(repeating: "W", count: 280)
        let wide = try #require(Self.inkBounds(Self.renderer.image(text: unbroken, caption: Self.caption), rows: 0..<550))
        #expect(wide.minX >= 70 && wide.maxX <= 1130 && wide.minY >= 40, "\(wide)")
    }

    @Test(arguments: ["", "   ", "🂡 ☃︎ 漢字", "e\u{301}\u{200B}\u{0}\u{7}\u{AD}ő", "Ω", String(repeating: "🙂", count: 300), "a\u{10FFFF}b"])
    func unknownCharactersDrawAsBoxesNeverCrash(text: String) throws {
        let image = try ReferencePNGDecoder.decode(Self.renderer.png(text: text, caption: text))
        #expect(image.width == 1200)
    }

    @Test func charactersTheAtlasLacksBecomeBaseLettersOrBoxes() {
        let atlas = Self.renderer.atlas
        #expect(atlas.drawable("  Go\n\tfor  a walk ") == Array("Go for a walk".unicodeScalars))
        #expect(atlas.drawable("e\u{301}ő\u{AD}") == ["é", "o"])
        #expect(atlas.drawable("a🙂") == ["a", GlyphAtlas.placeholderKey])
        #expect(atlas.glyph("🙂") == atlas.glyph(GlyphAtlas.placeholderKey))
    }

    @Test func renderingIsDeterministic() {
        let text = "Use an old idea — “Ça” isn’t it…"
        #expect(Self.renderer.png(text: text, caption: Self.caption) == Self.renderer.png(text: text, caption: Self.caption))
        #expect(Self.renderer.png(text: text, caption: Self.caption) != Self.renderer.png(text: text + "!", caption: Self.caption))
    }

    @Test func aDamagedAtlasIsAnErrorNotACrash() throws {
        let bytes = try Array(Data(contentsOf: #require(GlyphAtlas.bundledURL)))
        #expect(throws: GlyphAtlasError.self) { try GlyphAtlas(bytes: Array(bytes.prefix(5000))) }
        #expect(throws: GlyphAtlasError.self) { try GlyphAtlas(bytes: Array("nope".utf8)) }
        #expect(throws: Never.self) { try GlyphAtlas(bytes: bytes) }
    }

    @Test func scalingKeepsCoverage() {
        let square = GlyphAtlas.Glyph(advance: 10, left: 0, top: 8, width: 8, height: 8, alpha: [UInt8](repeating: 255, count: 64))
        let half = square.scaled(by: 0.5)
        #expect(half.width == 4 && half.height == 4 && half.top == 4 && half.advance == 5)
        #expect(half.alpha.allSatisfy { $0 == 255 })
    }

    /// The box around every pixel brighter than the background within `rows`.
    static func inkBounds(_ image: GrayImage, rows: Range<Int>) -> (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
        var bounds: (minX: Int, maxX: Int, minY: Int, maxY: Int)?
        for y in rows {
            for x in 0..<image.width where image[x, y] > 24 {
                bounds = (min(bounds?.minX ?? x, x), max(bounds?.maxX ?? x, x), min(bounds?.minY ?? y, y), max(bounds?.maxY ?? y, y))
            }
        }
        return bounds
    }
}
