extension GlyphAtlas.Glyph {
    /// This glyph drawn smaller (0 < scale ≤ 1): each new pixel is the average of the source area it covers
    /// (a box filter), and the bitmap keeps its fractional offset from the pen, so letters don't jitter.
    func scaled(by scale: Double) -> Self {
        guard scale < 1 else { return self }
        let x0 = Double(left) * scale
        let y0 = Double(-top) * scale
        let originX = x0.rounded(.down)
        let originY = y0.rounded(.down)
        let columns = Self.boxWeights(count: width, scale: scale, offset: x0 - originX)
        let rows = Self.boxWeights(count: height, scale: scale, offset: y0 - originY)
        guard !columns.isEmpty, !rows.isEmpty else {
            return Self(advance: advance * scale, left: Int(originX), top: -Int(originY), width: 0, height: 0, alpha: [])
        }

        // Columns first, into a float buffer of source rows × new columns, then rows.
        var horizontal = [Double](repeating: 0, count: height * columns.count)
        for y in 0..<height {
            for (x, taps) in columns.enumerated() {
                var sum = 0.0
                for tap in taps { sum += Double(alpha[y * width + tap.index]) * tap.weight }
                horizontal[y * columns.count + x] = sum
            }
        }
        var result = [UInt8](repeating: 0, count: rows.count * columns.count)
        for (y, taps) in rows.enumerated() {
            for x in 0..<columns.count {
                var sum = 0.0
                for tap in taps { sum += horizontal[tap.index * columns.count + x] * tap.weight }
                result[y * columns.count + x] = UInt8(min(255, max(0, sum.rounded())))
            }
        }
        return Self(
            advance: advance * scale, left: Int(originX), top: -Int(originY),
            width: columns.count, height: rows.count, alpha: result
        )
    }

    /// For each new pixel along one axis, the source pixels it overlaps and how much of it each covers.
    /// `offset` (0…1) is where source pixel 0 starts inside new pixel 0.
    static func boxWeights(count: Int, scale: Double, offset: Double) -> [[(index: Int, weight: Double)]] {
        guard count > 0 else { return [] }
        let newCount = Int((offset + Double(count) * scale).rounded(.up))
        return (0..<newCount).map { i in
            let start = max(0, (Double(i) - offset) / scale)
            let end = min(Double(count), (Double(i + 1) - offset) / scale)
            var taps: [(index: Int, weight: Double)] = []
            var j = Int(start.rounded(.down))
            while Double(j) < end {
                let overlap = min(end, Double(j + 1)) - max(start, Double(j))
                if overlap > 0 { taps.append((j, overlap * scale)) }
                j += 1
            }
            return taps
        }
    }
}
