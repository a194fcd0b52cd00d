import Foundation

/// Reads a Twine 2 published story (https://github.com/iftechfoundation/twine-specs/blob/master/twine-2-htmloutput-spec.md):
/// the `<tw-storydata>` element's name, startnode, format, format-version and ifid, and every `<tw-passagedata>`
/// (pid, name, tags, text) with its HTML entities decoded. The story's `<script>` and `<style>` are skipped.
/// Names are kept exactly as Twine wrote them (entities decoded, spaces kept).
public enum TwineHTML {
    public static func read(_ html: String) throws(TwineStory.FormatError) -> TwineStory {
        let bytes = Array(html.utf8)
        guard let storyTag = find("<tw-storydata", in: bytes, from: 0) else {
            if find("<div id=\"storearea\"", in: bytes, from: 0) != nil || find("<div id=\"store-area\"", in: bytes, from: 0) != nil {
                throw TwineStory.FormatError(
                    description:
                        "This is a Twine 1 story; Trove reads Twine 2 files. Open it in Twine 2 (Library › Import) and publish it again.")
            }
            throw TwineStory.FormatError(
                description: "This is not a Twine 2 story: it has no <tw-storydata> element. In Twine 2, use Build › Publish to File.")
        }
        let (storyAttributes, storyBodyStart) = attributes(in: bytes, from: storyTag + "<tw-storydata".utf8.count)
        // Twine always closes both elements: a file without the closing tag was cut off (a download or a copy that
        // stopped), and its last passage with it, so it is refused rather than published without its end.
        let cutOff = "The file ends before its story does (it has no </tw-storydata>): it was cut off. Publish it from Twine again."
        guard let storyEnd = find("</tw-storydata", in: bytes, from: storyBodyStart) else {
            throw TwineStory.FormatError(description: cutOff)
        }
        var passages: [TwineStory.Passage] = []
        var warnings: [String] = []
        var cursor = storyBodyStart
        while let open = find("<", in: bytes, from: cursor), open < storyEnd {
            if startsWith("<tw-passagedata", bytes, at: open) {
                let (attrs, bodyStart) = attributes(in: bytes, from: open + "<tw-passagedata".utf8.count)
                guard let bodyEnd = find("</tw-passagedata", in: bytes, from: bodyStart), bodyEnd < storyEnd else {
                    throw TwineStory.FormatError(
                        description:
                            "Passage \"\(attrs["name"] ?? "?")\" has no end (</tw-passagedata>): the file is damaged. Publish it from Twine again."
                    )
                }
                let text = decodeEntities(bytes[bodyStart..<bodyEnd])
                guard let name = attrs["name"] else {
                    warnings.append("A passage (pid \(attrs["pid"] ?? "?")) has no name and is left out.")
                    cursor = bodyEnd
                    continue
                }
                let tags = (attrs["tags"] ?? "").split(separator: " ").map(String.init)
                passages.append(TwineStory.Passage(pid: attrs["pid"], name: name, tags: tags, text: text))
                cursor = bodyEnd
            } else if startsWith("<script", bytes, at: open) || startsWith("<style", bytes, at: open) {
                let isScript = startsWith("<script", bytes, at: open)
                let (_, bodyStart) = attributes(in: bytes, from: open + (isScript ? 7 : 6))
                let bodyEnd = find(isScript ? "</script" : "</style", in: bytes, from: bodyStart) ?? storyEnd
                if isScript, !String(decoding: bytes[bodyStart..<bodyEnd], as: UTF8.self).twineTrimmed.isEmpty {
                    warnings.append("The story's JavaScript is not run by Trove.")
                }
                cursor = bodyEnd
            } else {
                cursor = open + 1
            }
        }
        guard !passages.isEmpty else { throw TwineStory.FormatError(description: "The Twine story holds no passages.") }
        let name = (storyAttributes["name"] ?? "").twineTrimmed
        var start: String?
        if let node = storyAttributes["startnode"], !node.isEmpty {
            guard let passage = passages.last(where: { $0.pid == node }) else {
                throw TwineStory.FormatError(description: "The story starts at passage \(node) (startnode), but no passage has that pid.")
            }
            start = passage.name
        } else if passages.contains(where: { $0.name == "Start" }) {
            start = "Start"
        }
        guard let start else {
            throw TwineStory.FormatError(description: "The story names no start passage (startnode), and none is called \"Start\".")
        }
        return TwineStory(
            name: name.isEmpty ? "Untitled story" : name, ifid: storyAttributes["ifid"],
            format: TwineStory.guessFormat(named: storyAttributes["format"], passages: passages),
            formatVersion: storyAttributes["format-version"], start: start, passages: passages, warnings: warnings
        )
    }

    /// Does this text look like a Twine 2 published story (for choosing a reader by content)?
    public static func isTwineHTML(_ text: some StringProtocol) -> Bool {
        text.range(of: "<tw-storydata", options: .caseInsensitive) != nil
    }

    // MARK: Scanning bytes

    static func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

    /// Case-insensitive; `pattern` is written in lower case.
    static func startsWith(_ pattern: String, _ bytes: [UInt8], at index: Int) -> Bool {
        var i = index
        for p in pattern.utf8 {
            guard i < bytes.count, lower(bytes[i]) == p else { return false }
            i += 1
        }
        // `<tw-storydata` must not match `<tw-storydatax`.
        if let last = pattern.utf8.last, last >= 97, last <= 122, i < bytes.count {
            let next = bytes[i]
            return !(next == 45 || (lower(next) >= 97 && lower(next) <= 122) || (next >= 48 && next <= 57))
        }
        return true
    }

    static func find(_ pattern: String, in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.utf8.first else { return nil }
        var i = start
        while i < bytes.count {
            if lower(bytes[i]) == first, startsWith(pattern, bytes, at: i) { return i }
            i += 1
        }
        return nil
    }

    /// The attributes of a start tag from just after its name, and the index after its `>`.
    static func attributes(in bytes: [UInt8], from start: Int) -> ([String: String], Int) {
        var attrs: [String: String] = [:]
        var i = start
        func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 || b == 12 }
        while i < bytes.count {
            while i < bytes.count, isSpace(bytes[i]) || bytes[i] == 47 { i += 1 }
            guard i < bytes.count else { break }
            if bytes[i] == 62 { return (attrs, i + 1) }
            let nameStart = i
            while i < bytes.count, !isSpace(bytes[i]), bytes[i] != 61, bytes[i] != 62 { i += 1 }
            let name = String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased()
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            var value = ""
            if i < bytes.count, bytes[i] == 61 {
                i += 1
                while i < bytes.count, isSpace(bytes[i]) { i += 1 }
                if i < bytes.count, bytes[i] == 34 || bytes[i] == 39 {
                    let quote = bytes[i]
                    let valueStart = i + 1
                    i = valueStart
                    while i < bytes.count, bytes[i] != quote { i += 1 }
                    value = String(decoding: bytes[valueStart..<min(i, bytes.count)], as: UTF8.self)
                    i += 1
                } else {
                    let valueStart = i
                    while i < bytes.count, !isSpace(bytes[i]), bytes[i] != 62 { i += 1 }
                    value = String(decoding: bytes[valueStart..<i], as: UTF8.self)
                }
            }
            if attrs[name] == nil { attrs[name] = decodeEntities(value) }
        }
        return (attrs, bytes.count)
    }

    // MARK: Entities

    static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}", "hellip": "…", "mdash": "—", "ndash": "–",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "copy": "©", "reg": "®", "trade": "™", "deg": "°", "middot": "·",
        "laquo": "«", "raquo": "»", "times": "×", "eacute": "é", "egrave": "è", "agrave": "à", "ccedil": "ç", "uuml": "ü", "ouml": "ö",
        "auml": "ä", "szlig": "ß", "bull": "•", "euro": "€", "pound": "£", "sect": "§", "para": "¶", "iexcl": "¡", "iquest": "¿",
    ]

    /// `decodeEntities` over the file's bytes, without making a String of the raw text first.
    static func decodeEntities(_ bytes: ArraySlice<UInt8>) -> String {
        let ampersand = UInt8(ascii: "&")
        let semicolon = UInt8(ascii: ";")
        guard bytes.contains(ampersand) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == ampersand, let end = bytes[(i + 1)..<min(i + 13, bytes.endIndex)].firstIndex(of: semicolon),
                let decoded = entity(String(decoding: bytes[(i + 1)..<end], as: UTF8.self))
            {
                out.append(contentsOf: decoded.utf8)
                i = end + 1
            } else {
                out.append(b)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text an entity's name (between `&` and `;`) stands for.
    static func entity(_ name: String) -> String? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        if name.hasPrefix("#") { return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) } }
        return namedEntities[name]
    }

    /// `&amp;`, `&#39;`, `&#x27;` and the common named entities; anything else is left as written.
    public static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semicolon = after.prefix(12).firstIndex(of: ";") {
                let entity = after[..<semicolon]
                var decoded: String?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    decoded = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if entity.hasPrefix("#") {
                    decoded = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else {
                    decoded = namedEntities[String(entity)]
                }
                if let decoded {
                    out += decoded
                    rest = after[after.index(after: semicolon)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        out += rest
        return out
    }

    /// What Twine escapes when it writes a passage or an attribute.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
