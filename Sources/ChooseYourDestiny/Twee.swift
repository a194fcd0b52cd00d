import Foundation

/// Twee 3 (the text form of Twine stories, https://github.com/iftechfoundation/twine-specs/blob/master/twee-3-specification.md)
/// read into a `Story`: one chapter per passage, links as choices.
public enum Twee {
    public struct Passage: Equatable, Sendable {
        public let name: String
        public let tags: [String]
        public let text: String
    }

    public struct ImportResult: Sendable, Equatable {
        public let story: Story
        public let warnings: [String]
    }

    public struct FormatError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    public static func importStory(_ source: String) throws(FormatError) -> ImportResult {
        let passages = try parsePassages(source)
        var warnings: [String] = []
        var title = ""
        var start: String?
        var ifid: String?
        var chapters: [Chapter] = []
        for passage in passages {
            switch passage.name {
            case "StoryTitle":
                title = passage.text.trimmingCharacters(in: .whitespacesAndNewlines)
                continue
            case "StoryData":
                guard let data = try? LenientJSON.parse(passage.text) else {
                    throw FormatError(description: "The StoryData passage is not JSON.")
                }
                if case .string(let value)? = data["start"] { start = value }
                if case .string(let value)? = data["ifid"] { ifid = value }
                continue
            default:
                break
            }
            if passage.tags.contains("script") || passage.tags.contains("stylesheet") { continue }
            let (text, choices) = links(in: passage.text)
            let macros = macroNames(in: text)
            if !macros.isEmpty {
                warnings.append("Passage \"\(passage.name)\" uses \(macros.joined(separator: ", ")), which Trove shows as text.")
            }
            chapters.append(Chapter(id: passage.name, name: passage.name, text: text, choices: choices))
        }
        guard !chapters.isEmpty else { throw FormatError(description: "The file holds no passages (each starts with a line '::Name').") }
        let first = start ?? (chapters.contains { $0.id == "Start" } ? "Start" : nil)
        guard let first, let index = chapters.firstIndex(where: { $0.id == first }) else {
            throw FormatError(
                description: start.map { "StoryData names \"\($0)\" as the start, but there is no such passage." }
                    ?? "There is no start: name a passage \"Start\" or set \"start\" in StoryData.")
        }
        chapters[index].isFirst = true
        let name = title.isEmpty ? "Untitled story" : title
        return ImportResult(story: Story(id: ifid?.lowercased() ?? slug(name), name: name, chapters: chapters), warnings: warnings)
    }

    /// Splits the source into passages: a header line `:: Name [tags] {metadata}`, then the text up to the next header.
    public static func parsePassages(_ source: String) throws(FormatError) -> [Passage] {
        var passages: [Passage] = []
        var current: (name: String, tags: [String])?
        var lines: [Substring] = []
        func finish() {
            if let current {
                var body = lines
                while let last = body.last, last.trimmingCharacters(in: .whitespaces).isEmpty { body.removeLast() }
                passages.append(Passage(name: current.name, tags: current.tags, text: body.joined(separator: "\n")))
            }
            lines = []
        }
        for line in source.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("::") {
                finish()
                current = try header(line.dropFirst(2))
            } else if current != nil {
                lines.append(line)
            }
        }
        finish()
        return passages
    }

    /// `Name [tag1 tag2] {"position":"…"}` with `\` escaping the next character in the name and tags.
    static func header(_ text: Substring) throws(FormatError) -> (name: String, tags: [String]) {
        var name = ""
        var tagText = ""
        var inTags = false
        var escaped = false
        for character in text {
            if escaped {
                if inTags { tagText.append(character) } else { name.append(character) }
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "[" where !inTags: inTags = true
            case "]" where inTags: inTags = false
            case "{" where !inTags:
                // Metadata (position, size) means nothing to a reader.
                return (try checkedName(name), tagText.split(separator: " ").map(String.init))
            default:
                if inTags { tagText.append(character) } else { name.append(character) }
            }
        }
        return (try checkedName(name), tagText.split(separator: " ").map(String.init))
    }

    static func checkedName(_ name: String) throws(FormatError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw FormatError(description: "A passage header '::' has no name.") }
        return trimmed
    }

    /// The text with its links taken out, and the links as choices, as Twine 2 reads them:
    /// `[[Target]]`, `[[Text|Target]]`, `[[Text->Target]]` (the rightmost ->), `[[Target<-Text]]` (the leftmost <-),
    /// a setter `][…]` dropped. A link to an outside address stays in the text as its words, and so does a link in a
    /// sentence (`TwineMarkup.linkInProse`), which is a choice too.
    public static func links(in text: String) -> (text: String, choices: [Choice]) {
        // Over scalars: Foundation's search on what is left of the text copied it at each link (quadratic).
        var output = ""
        var choices: [Choice] = []
        let s = Array(text.unicodeScalars)
        var i = 0
        while let open = TwineMarkup.find("[[", s, i, s.count), let close = TwineMarkup.find("]]", s, open + 2, s.count) {
            output += TwineMarkup.string(s[i..<open])
            var inner = TwineMarkup.string(s[(open + 2)..<close])
            i = close + 2
            // A setter link [[link][$x = 1]] leaves "link][$x = 1" between the brackets: keep the link.
            if let setter = inner.range(of: "][") { inner = String(inner[..<setter.lowerBound]) }
            let (words, target) = split(inner)
            if TwineText.isAddress(target) {
                output += words
                continue
            }
            if TwineMarkup.linkInProse(s, open, close + 2) { output += words }
            choices.append(Choice(chapterID: target, text: words))
        }
        output += TwineMarkup.string(s[i...])
        // Lines that held only links are gone; runs of blank lines become one paragraph break.
        let cleaned = output.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var lines: [String] = []
        for line in cleaned where !(line.isEmpty && (lines.last?.isEmpty ?? true)) { lines.append(line) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return (lines.joined(separator: "\n"), choices)
    }

    static func split(_ link: String) -> (text: String, target: String) {
        if let arrow = link.range(of: "->", options: .backwards) {
            return (trim(link[..<arrow.lowerBound]), trim(link[arrow.upperBound...]))
        }
        if let arrow = link.range(of: "<-") {
            return (trim(link[arrow.upperBound...]), trim(link[..<arrow.lowerBound]))
        }
        if let bar = link.firstIndex(of: "|") {
            return (trim(link[..<bar]), trim(link[link.index(after: bar)...]))
        }
        return (trim(link[...]), trim(link[...]))
    }

    static func trim(_ text: Substring) -> String { text.trimmingCharacters(in: .whitespaces) }

    /// SugarCube `<<if …>>` and Harlowe `(set: …)` macros: Trove shows them as text.
    static func macroNames(in text: String) -> [String] {
        var names: [String] = []
        let patterns = ["<<\\s*/?([A-Za-z][A-Za-z0-9_-]*)", "\\(([A-Za-z][A-Za-z0-9_-]*):"]
        for pattern in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let name = pattern.hasPrefix("<<") ? "<<\(text[range])>>" : "(\(text[range]):)"
                if !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// "The Lighthouse Keeper" → "the-lighthouse-keeper".
    public static func slug(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        let words = folded.split { !($0.isLetter || $0.isNumber) || !$0.isASCII }
        let joined = words.joined(separator: "-")
        return joined.isEmpty ? "story" : String(joined.prefix(80))
    }
}
