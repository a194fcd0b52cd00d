/// Whether an SVG file is a picture and nothing more: an `<svg>` document with no script, no event handler
/// attributes, no links or loads outside itself, no animation that rewrites a link, and no embedded HTML or
/// documents. Pages show story pictures in `<img>`, where scripts never run, but a picture opened on its own is
/// a document: this keeps it inert there too (and the server sends it with a sandboxing CSP besides).
///
/// The check reads the text as a browser would before matching: character references decoded (`&#106;` is
/// `j`) and the whitespace a URL parser drops removed (`java&#9;script:`), so an encoded name is still seen.
public enum SVGSafety {
    /// Matched in the lower-cased, decoded text with whitespace removed. (`data:` URLs are caught as references.)
    static let forbidden = [
        "<script", "javascript:", "vbscript:", "<foreignobject", "<iframe", "<embed", "<object", "<!entity",
        "<html", "<set", "@import",
    ]

    public static func isSafePicture(_ bytes: some Collection<UInt8>) -> Bool {
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        let lower = text.lowercased()
        guard lower.contains("<svg") else { return false }
        let decoded = decodingCharacterReferences(lower)
        let squeezed = String(decoded.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F })
        guard !forbidden.contains(where: squeezed.contains) else { return false }
        return !hasEventHandler(Array(decoded.utf8)) && !hasOutsideReference(squeezed) && !animatesALink(squeezed)
    }

    /// `&#106;`, `&#x6A;` and the named references a URL could hide behind, decoded; anything else left as it is.
    static func decodingCharacterReferences(_ text: String) -> String {
        let named = [
            "colon": ":", "tab": "\t", "newline": "\n", "sol": "/", "lpar": "(", "rpar": ")", "amp": "&", "quot": "\"", "apos": "'",
        ]
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            let name = after.prefix { $0.isLetter || $0.isNumber || $0 == "#" }
            var replacement: String?
            if name.hasPrefix("#x"), let value = UInt32(name.dropFirst(2), radix: 16) {
                replacement = Unicode.Scalar(value).map { String(Character($0)) }
            } else if name.hasPrefix("#"), let value = UInt32(name.dropFirst()) {
                replacement = Unicode.Scalar(value).map { String(Character($0)) }
            } else {
                replacement = named[String(name)]
            }
            if let replacement, !name.isEmpty {
                result += replacement
                rest = after.dropFirst(name.count)
                if rest.first == ";" { rest = rest.dropFirst() }
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
    }

    /// A link or load that leaves the picture: `href` (or `xlink:href`, `src`) not starting with `#`, or a
    /// `url(…)` that does not. In-picture references (`url(#gradient)`, `href="#shape"`) are fine.
    static func hasOutsideReference(_ squeezed: String) -> Bool {
        for attribute in ["href=", "src="] {
            var rest = Substring(squeezed)
            while let found = rest.firstRange(of: attribute) {
                var value = rest[found.upperBound...]
                if let quote = value.first, quote == "\"" || quote == "'" { value = value.dropFirst() }
                if value.first != "#" { return true }
                rest = rest[found.upperBound...]
            }
        }
        var rest = Substring(squeezed)
        while let found = rest.firstRange(of: "url(") {
            var value = rest[found.upperBound...]
            if let quote = value.first, quote == "\"" || quote == "'" { value = value.dropFirst() }
            if value.first != "#" { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }

    /// `<animate attributeName="href">` (or any animation of a link) can turn a harmless link into a script one.
    static func animatesALink(_ squeezed: String) -> Bool {
        var rest = Substring(squeezed)
        while let start = rest.firstRange(of: "<animate") {
            let tag = rest[start.upperBound...].prefix { $0 != ">" }
            if tag.contains("attributename=\"href\"") || tag.contains("attributename='href'") || tag.contains("attributename=href")
                || tag.contains("attributename=\"xlink:href\"") || tag.contains("attributename='xlink:href'")
            {
                return true
            }
            rest = rest[start.upperBound...]
        }
        return false
    }

    /// An attribute named on… (onload, onclick, …) inside a tag: a space or "/", "on", letters, optional
    /// spaces, "=". Text between tags ("one = two" in a title) is not an attribute.
    static func hasEventHandler(_ text: [UInt8]) -> Bool {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let isLetter: (UInt8) -> Bool = { $0 >= 0x61 && $0 <= 0x7A }
        var inTag = false
        var index = 0
        while index < text.count {
            defer { index += 1 }
            switch text[index] {
            case UInt8(ascii: "<"): inTag = true
            case UInt8(ascii: ">"): inTag = false
            default: break
            }
            guard inTag, index + 3 < text.count, isSpace(text[index]) || text[index] == UInt8(ascii: "/"),
                text[index + 1] == UInt8(ascii: "o"), text[index + 2] == UInt8(ascii: "n"), isLetter(text[index + 3])
            else { continue }
            var end = index + 3
            while end < text.count, isLetter(text[end]) { end += 1 }
            while end < text.count, isSpace(text[end]) { end += 1 }
            if end < text.count, text[end] == UInt8(ascii: "=") { return true }
        }
        return false
    }
}
