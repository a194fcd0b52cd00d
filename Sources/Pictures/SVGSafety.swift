/// Whether an SVG file is a picture and nothing more: an `<svg>` document with no script, no event handler
/// attributes, no `javascript:` links and no embedded HTML or documents. Pages show story pictures in `<img>`,
/// where scripts never run, but a picture opened on its own is a document: this keeps it inert there too.
public enum SVGSafety {
    static let forbidden = ["<script", "javascript:", "<foreignobject", "<iframe", "<embed", "<object", "<!entity", "<html"]

    public static func isSafePicture(_ bytes: some Collection<UInt8>) -> Bool {
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        let lower = text.lowercased()
        guard lower.contains("<svg") else { return false }
        return !forbidden.contains(where: lower.contains) && !hasEventHandler(Array(lower.utf8))
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
