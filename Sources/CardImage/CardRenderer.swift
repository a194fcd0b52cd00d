/// Draws a card as the app shows it: the text large, light on black, wrapped and centred, with a small
/// caption ("Oblique Strategies · Edition 2") at the bottom. 1200 × 630, the Open Graph preview size.
public struct CardRenderer: Sendable {
    public static let width = 1200
    public static let height = 630

    /// The app's card colours (#f7f7f2 and #b4b4ad) as gray levels.
    static let textColor: UInt8 = 247
    static let captionColor: UInt8 = 180
    static let margin = 80.0
    static let textTop = 56.0
    static let textBottom = 520.0
    static let captionBaseline = 588.0
    static let captionSize = 28.0
    /// Text sizes tried in turn, largest first, until the card fits (280 characters of prose fit at 44 px).
    static let textSizes: [Double] = [64, 56, 50, 44, 40, 36, 32, 28, 24]
    static let lineHeight = 1.25

    let atlas: GlyphAtlas

    public init(atlas: GlyphAtlas) {
        self.atlas = atlas
    }

    public func png(text: String, caption: String) -> [UInt8] {
        PNGEncoder.encode(image(text: text, caption: caption))
    }

    public func image(text: String, caption: String) -> GrayImage {
        var image = GrayImage(width: Self.width, height: Self.height)
        let maxWidth = Double(Self.width) - 2 * Self.margin
        let layout = textLayout(atlas.drawable(text), maxWidth: maxWidth)
        let size = layout.scale * Double(atlas.pixelSize)
        let step = size * Self.lineHeight
        let capHeight = Double(atlas.capHeight) * layout.scale
        // Centre what the eye sees: from the top of the capitals on the first line to the last baseline.
        let inked = Double(layout.lines.count - 1) * step + capHeight
        let firstBaseline = ((Self.textTop + Self.textBottom - inked) / 2 + capHeight).rounded()
        draw(layout.lines, scale: layout.scale, firstBaseline: firstBaseline, step: step, color: Self.textColor, into: &image)

        let captionScale = Self.captionSize / Double(atlas.pixelSize)
        let captionLine = TextLayout.singleLine(atlas.drawable(caption), atlas: atlas, scale: captionScale)
        draw([captionLine], scale: captionScale, firstBaseline: Self.captionBaseline, step: 0, color: Self.captionColor, into: &image)
        return image
    }

    /// The largest size at which the text fits between the margins; the smallest size when nothing does.
    func textLayout(_ scalars: [Unicode.Scalar], maxWidth: Double) -> TextLayout {
        let available = Self.textBottom - Self.textTop
        for size in Self.textSizes {
            let scale = size / Double(atlas.pixelSize)
            let layout = TextLayout(scalars, atlas: atlas, scale: scale, maxWidth: maxWidth)
            let height = Double(max(layout.lines.count, 1) - 1) * size * Self.lineHeight + Double(atlas.ascent + atlas.descent) * scale
            if height <= available || size == Self.textSizes.last { return layout }
        }
        preconditionFailure("textSizes is not empty")
    }

    /// Draws lines centred across the image, each glyph at its pen position rounded to a whole pixel.
    func draw(_ lines: [TextLayout.Line], scale: Double, firstBaseline: Double, step: Double, color: UInt8, into image: inout GrayImage) {
        var scaled: [Unicode.Scalar: GlyphAtlas.Glyph] = [:]
        for (index, line) in lines.enumerated() {
            let baseline = Int(firstBaseline + Double(index) * step)
            var pen = (Double(Self.width) - line.width) / 2
            for scalar in line.scalars {
                let glyph = scaled[scalar] ?? atlas.glyph(scalar).scaled(by: scale)
                scaled[scalar] = glyph
                image.draw(glyph, x: Int(pen.rounded()) + glyph.left, y: baseline - glyph.top, color: color)
                pen += glyph.advance
            }
        }
    }
}

extension GrayImage {
    /// Paints a glyph's alpha in `color` with its top-left corner at (x, y), clipped to the image.
    mutating func draw(_ glyph: GlyphAtlas.Glyph, x: Int, y: Int, color: UInt8) {
        for row in 0..<glyph.height {
            for column in 0..<glyph.width {
                blend(x: x + column, y: y + row, color: color, alpha: glyph.alpha[row * glyph.width + column])
            }
        }
    }
}
