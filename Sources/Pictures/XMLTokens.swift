/// A strict reader of the XML an SVG file is: the pieces in order (a start tag with its attributes, an end tag,
/// text), each attribute's value with its character references decoded. It reads what an XML parser reads, quotes
/// included, so a `>` inside an attribute's value ends nothing; anything an SVG picture has no use for (a DOCTYPE with
/// an internal subset, a processing instruction other than the XML declaration, an unknown entity, an unquoted or
/// repeated attribute) makes the whole file unreadable. Linear, and never recursive.
struct XMLTokens {
    enum Token: Equatable {
        case start(name: String, attributes: [(name: String, value: String)], selfClosing: Bool)
        case end(name: String)
        case text(String)

        static func == (a: Token, b: Token) -> Bool {
            switch (a, b) {
            case (.end(let x), .end(let y)), (.text(let x), .text(let y)): x == y
            case (.start(let n1, let a1, let s1), .start(let n2, let a2, let s2)):
                n1 == n2 && s1 == s2 && a1.map(\.name) == a2.map(\.name) && a1.map(\.value) == a2.map(\.value)
            default: false
            }
        }
    }

    struct Unreadable: Error {}

    /// A DOCTYPE SVG editors write: SVG's public identifier and a W3C address, with no internal subset (which could
    /// declare entities); a browser loads nothing for it.
    static func isPlainSVGDoctype(_ text: String) -> Bool {
        text == "<!DOCTYPE svg>"
            || text.hasPrefix("<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG ") && text.contains("\"http://www.w3.org/") && !text.contains("[")
    }

    static func read(_ text: String) throws(Unreadable) -> [Token] {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var tokens: [Token] = []
        var index = 0
        var textStart = 0
        func flushText(upTo end: Int) throws(Unreadable) {
            if end > textStart { tokens.append(.text(try decode(scalars[textStart..<end]))) }
        }
        while index < scalars.count {
            guard scalars[index] == "<" else {
                index += 1
                continue
            }
            try flushText(upTo: index)
            if starts(scalars, at: index, with: "<!--") {
                guard let close = find(scalars, "-->", from: index + 4) else { throw Unreadable() }
                index = close + 3
            } else if starts(scalars, at: index, with: "<![CDATA[") {
                guard let close = find(scalars, "]]>", from: index + 9) else { throw Unreadable() }
                tokens.append(.text(String(String.UnicodeScalarView(scalars[(index + 9)..<close]))))
                index = close + 3
            } else if starts(scalars, at: index, with: "<!") {
                guard let close = find(scalars, ">", from: index), isPlainSVGDoctype(squeezed(scalars[index...close])) else {
                    throw Unreadable()
                }
                index = close + 1
            } else if starts(scalars, at: index, with: "<?") {
                // Only the XML declaration, and only first.
                guard !tokens.contains(where: { if case .start = $0 { true } else { false } }),
                    starts(scalars, at: index, with: "<?xml "), let close = find(scalars, "?>", from: index)
                else { throw Unreadable() }
                index = close + 2
            } else if starts(scalars, at: index, with: "</") {
                guard let close = find(scalars, ">", from: index) else { throw Unreadable() }
                let name = String(String.UnicodeScalarView(scalars[(index + 2)..<close])).trimmingXMLSpace()
                guard isName(name) else { throw Unreadable() }
                tokens.append(.end(name: name))
                index = close + 1
            } else {
                let (token, next) = try startTag(scalars, at: index)
                tokens.append(token)
                index = next
            }
            textStart = index
        }
        try flushText(upTo: scalars.count)
        return tokens
    }

    /// The start tag at `index` (a `<`), and where what follows it begins.
    private static func startTag(_ s: [Unicode.Scalar], at index: Int) throws(Unreadable) -> (Token, Int) {
        var i = index + 1
        let nameStart = i
        while i < s.count, !isSpace(s[i]), s[i] != ">", s[i] != "/" { i += 1 }
        let name = String(String.UnicodeScalarView(s[nameStart..<i]))
        guard isName(name) else { throw Unreadable() }
        var attributes: [(name: String, value: String)] = []
        while true {
            let beforeSpace = i
            while i < s.count, isSpace(s[i]) { i += 1 }
            guard i < s.count else { throw Unreadable() }
            if s[i] == ">" { return (.start(name: name, attributes: attributes, selfClosing: false), i + 1) }
            if s[i] == "/" {
                guard i + 1 < s.count, s[i + 1] == ">" else { throw Unreadable() }
                return (.start(name: name, attributes: attributes, selfClosing: true), i + 2)
            }
            // Attributes are separated by whitespace (`<svg/onload=…>` and `a="1"b="2"` are not XML).
            guard i > beforeSpace else { throw Unreadable() }
            let attributeStart = i
            while i < s.count, !isSpace(s[i]), s[i] != "=", s[i] != ">", s[i] != "/" { i += 1 }
            let attribute = String(String.UnicodeScalarView(s[attributeStart..<i]))
            while i < s.count, isSpace(s[i]) { i += 1 }
            guard isName(attribute), i < s.count, s[i] == "=" else { throw Unreadable() }
            i += 1
            while i < s.count, isSpace(s[i]) { i += 1 }
            guard i < s.count, s[i] == "\"" || s[i] == "'" else { throw Unreadable() }
            let quote = s[i]
            guard let close = s[(i + 1)...].firstIndex(of: quote) else { throw Unreadable() }
            let raw = s[(i + 1)..<close]
            guard !raw.contains("<"), !attributes.contains(where: { $0.name == attribute }) else { throw Unreadable() }
            attributes.append((attribute, try decode(raw)))
            i = close + 1
        }
    }

    /// Text with its character references decoded: numeric ones and XML's five; any other is refused.
    static func decode(_ raw: ArraySlice<Unicode.Scalar>) throws(Unreadable) -> String {
        let named: [String: Unicode.Scalar] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
        var result = String.UnicodeScalarView()
        var i = raw.startIndex
        while i < raw.endIndex {
            guard raw[i] == "&" else {
                result.append(raw[i])
                i += 1
                continue
            }
            guard let semicolon = raw[i...].firstIndex(of: ";"), semicolon - i <= 10 else { throw Unreadable() }
            let reference = String(String.UnicodeScalarView(raw[(i + 1)..<semicolon]))
            let scalar: Unicode.Scalar?
            if reference.hasPrefix("#x") || reference.hasPrefix("#X") {
                scalar = UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if reference.hasPrefix("#") {
                scalar = UInt32(reference.dropFirst()).flatMap(Unicode.Scalar.init)
            } else {
                scalar = named[reference]
            }
            guard let scalar else { throw Unreadable() }
            result.append(scalar)
            i = semicolon + 1
        }
        return String(result)
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" }

    /// An XML name, perhaps with one prefix (`svg`, `xlink:href`): letters, digits, `_`, `-`, `.`, not starting with
    /// a digit, `-` or `.`.
    static func isName(_ name: String) -> Bool {
        let parts = name.split(separator: ":", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { part in
                guard let first = part.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
                return part.unicodeScalars.allSatisfy {
                    $0.properties.isAlphabetic || $0.properties.numericType != nil || "_-.".unicodeScalars.contains($0)
                }
            }
    }

    private static func starts(_ s: [Unicode.Scalar], at index: Int, with prefix: String) -> Bool {
        var i = index
        for scalar in prefix.unicodeScalars {
            guard i < s.count, s[i] == scalar else { return false }
            i += 1
        }
        return true
    }

    private static func find(_ s: [Unicode.Scalar], _ needle: String, from start: Int) -> Int? {
        var i = start
        while i < s.count {
            if starts(s, at: i, with: needle) { return i }
            i += 1
        }
        return nil
    }

    /// A DOCTYPE with its runs of whitespace made one space, to compare with the known ones.
    private static func squeezed(_ s: ArraySlice<Unicode.Scalar>) -> String {
        var result = String.UnicodeScalarView()
        for scalar in s {
            if isSpace(scalar) {
                if result.last != " " { result.append(" ") }
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}

extension String {
    func trimmingXMLSpace() -> String {
        String(String.UnicodeScalarView(unicodeScalars.drop(while: XMLTokens.isSpace).reversed().drop(while: XMLTokens.isSpace).reversed()))
    }
}
