/// Text broken into lines that fit a width, at one scale of the atlas.
struct TextLayout {
    struct Line {
        var scalars: [Unicode.Scalar]
        var width: Double
    }

    let scale: Double
    let lines: [Line]

    /// Wraps at spaces like the app's card (`text-wrap: balance`): as few lines as fit `maxWidth`, then the
    /// narrowest width that needs no more lines, so they come out even. A word wider than a line is cut
    /// anywhere (`overflow-wrap: anywhere`).
    init(_ scalars: [Unicode.Scalar], atlas: GlyphAtlas, scale: Double, maxWidth: Double) {
        self.scale = scale
        let advance = { (scalar: Unicode.Scalar) in atlas.glyph(scalar).advance * scale }
        let words = scalars.split(separator: " ").flatMap { word in
            Self.pieces(of: Array(word), advance: advance, maxWidth: maxWidth)
        }
        let space = advance(" ")
        let greedy = Self.wrap(words, space: space, maxWidth: maxWidth)
        var low = 0.0
        var high = maxWidth
        var best = greedy
        for _ in 0..<12 {
            let middle = (low + high) / 2
            let trial = Self.wrap(words, space: space, maxWidth: middle)
            if trial.count <= greedy.count {
                high = middle
                best = trial
            } else {
                low = middle
            }
        }
        lines = best
    }

    /// The text on one line, however long.
    static func singleLine(_ scalars: [Unicode.Scalar], atlas: GlyphAtlas, scale: Double) -> Line {
        Line(scalars: scalars, width: scalars.reduce(0) { $0 + atlas.glyph($1).advance * scale })
    }

    /// Greedy line filling: each line takes words while they fit. A word wider than `maxWidth` gets a line of its own.
    static func wrap(_ words: [Line], space: Double, maxWidth: Double) -> [Line] {
        var lines: [Line] = []
        for word in words {
            if let last = lines.last, last.width + space + word.width <= maxWidth {
                lines[lines.count - 1].scalars += [" "] + word.scalars
                lines[lines.count - 1].width += space + word.width
            } else {
                lines.append(word)
            }
        }
        return lines
    }

    /// A word with its width; one too wide for a line is cut into pieces that fit (at least one character each).
    static func pieces(of word: [Unicode.Scalar], advance: (Unicode.Scalar) -> Double, maxWidth: Double) -> [Line] {
        var pieces: [Line] = []
        var piece = Line(scalars: [], width: 0)
        for scalar in word {
            let width = advance(scalar)
            if !piece.scalars.isEmpty, piece.width + width > maxWidth {
                pieces.append(piece)
                piece = Line(scalars: [], width: 0)
            }
            piece.scalars.append(scalar)
            piece.width += width
        }
        if !piece.scalars.isEmpty { pieces.append(piece) }
        return pieces
    }
}
