/// A style sheet as phones get it: its comments and each line's indentation left out. The files keep their comments
/// for the people who read them; a phone parses about a tenth less of every page's CSS.
enum CSSMinifier {
    /// `css` without its comments (outside strings), the whitespace starting each line, and empty lines. Everything
    /// else, strings included, is kept byte for byte.
    static func minified(_ css: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(css.count)
        var index = 0
        var quote: UInt8?
        var atLineStart = true
        while index < css.count {
            let byte = css[index]
            if let open = quote {
                out.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < css.count {
                    out.append(css[index + 1])
                    index += 1
                } else if byte == open || byte == UInt8(ascii: "\n") {
                    quote = nil
                }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "/"), index + 1 < css.count, css[index + 1] == UInt8(ascii: "*") {
                var end = index + 2
                while end + 1 < css.count, !(css[end] == UInt8(ascii: "*") && css[end + 1] == UInt8(ascii: "/")) { end += 1 }
                index = min(end + 2, css.count)
                continue
            }
            if atLineStart, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") {
                index += 1
                continue
            }
            atLineStart = byte == UInt8(ascii: "\n")
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte }
            out.append(byte)
            index += 1
        }
        return out
    }
}
