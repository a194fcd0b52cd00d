import Foundation

/// How rendering a passage (or a choice's effect) ended.
enum TwineOutcome: Equatable {
    case done(String)
    case goto(String)
    case stopped(String)
}

/// Thrown through the markup walkers to leave a passage at once.
enum TwineInterrupt: Error {
    case goto(String)
    case stop(String)
}

struct TwineEvalError: Error, CustomStringConvertible {
    let description: String
}

/// One run through a passage's markup: the state it changes, the text and choices it gathers.
struct TwineRun {
    let story: TwineStory
    var passage: String
    var state: ReaderState
    var temporaries: [String: TwineValue] = [:]
    var output = ""
    var choices: [TwineChoice] = []
    var warnings: [String] = []
    var warned: Set<String> = []
    var depth = 0
    /// Hooks, macro bodies and included passages open around the walk (`TwineLimits.nesting`).
    var markupNesting = 0
    /// `value(of:)` calls open around the one running.
    var evaluationNesting = 0
    /// The request's budget, charged as the markup is walked and expressions evaluated.
    let work: TwineWork
    /// Passages that exceed `TwineLimits`, with why: they are not run (`TwineLimits.problems`).
    var problems: [String: String] = [:]
    /// Harlowe's `it` while a `(set:)` computes a variable's new value.
    var it: TwineValue?
    /// Markup characters walked in one step (its gotos included); stops a story that `(display:)`s itself without end.
    static let budget = 1_000_000
    var budget = TwineRun.budget
    /// The markup of the format's header, footer and "ready" passages, run with every passage.
    var extras = TwineExtras()

    init(story: TwineStory, passage: String, state: ReaderState, work: TwineWork = TwineWork()) {
        self.story = story
        self.passage = passage
        self.state = state
        self.work = work
    }

    var harlowe: Bool { story.format != .sugarcube }

    /// The current passage, with the format's header and footer passages around it.
    mutating func renderPassage() -> TwineOutcome {
        guard let text = story.passage(named: passage)?.text else {
            return .stopped("The story stopped here: there is no passage \"\(passage)\".")
        }
        do throws(TwineInterrupt) {
            try refuseIfTooLarge(passage)
            for name in extras.names { try refuseIfTooLarge(name) }
            for extra in extras.ready {
                let saved = output
                try renderMarkup(extra)
                output = saved
            }
            for extra in extras.headers {
                try renderMarkup(extra)
                output += "\n\n"
            }
            try renderMarkup(text)
            for extra in extras.footers {
                output += "\n\n"
                try renderMarkup(extra)
            }
            return .done(output)
        } catch {
            switch error {
            case .goto(let target): return .goto(target)
            case .stop(let message): return .stopped(message)
            }
        }
    }

    /// Runs markup for its effects only (startup passages, a choice's effect).
    mutating func renderSilently(_ markup: String) -> TwineOutcome {
        let saved = (output, choices)
        defer { (output, choices) = saved }
        do throws(TwineInterrupt) {
            try renderMarkup(markup)
            return .done("")
        } catch {
            switch error {
            case .goto(let target): return .goto(target)
            case .stop(let message): return .stopped(message)
            }
        }
    }

    mutating func renderMarkup(_ markup: String) throws(TwineInterrupt) {
        let chars = Array(markup.unicodeScalars)
        try charge(chars.count)
        budget -= chars.count
        guard budget > 0 else {
            throw .stop(
                "The story stopped here: passage \"\(passage)\" includes more text than a passage can hold (does it include itself?).")
        }
        switch story.format {
        case .sugarcube: try renderSugarCube(chars, 0, chars.count)
        case .harlowe: try renderHarlowe(chars, 0, chars.count)
        case .other: try renderPlain(chars, 0, chars.count)
        }
    }

    /// `(display:)` / `<<include>>`: another passage's markup, here.
    mutating func include(_ name: String, macro: String) throws(TwineInterrupt) {
        guard let resolved = story.resolve(name), let text = story.passage(named: resolved)?.text else {
            warn("Passage \"\(passage)\": \(macro) names \"\(name)\", which does not exist.")
            return
        }
        depth += 1
        defer { depth -= 1 }
        guard depth <= TwineInterpreter.includeDepthLimit else {
            throw .stop(
                "The story stopped here: passage \"\(name)\" is included within itself more than \(TwineInterpreter.includeDepthLimit) times."
            )
        }
        try refuseIfTooLarge(resolved)
        try renderMarkup(text)
    }

    mutating func warn(_ message: String) {
        if warned.insert(message).inserted { warnings.append(message) }
    }

    mutating func unsupported(_ macro: String) {
        warn("Passage \"\(passage)\" uses \(macro), which Trove shows as text.")
    }

    mutating func addChoice(_ choice: TwineChoice, macro: String) {
        guard let target = story.resolve(choice.target) else {
            warn("Passage \"\(passage)\": \(macro) leads to \"\(choice.target)\", which does not exist.")
            return
        }
        var choice = choice
        choice.target = target
        choices.append(choice)
    }

    /// Links without macros (Chapbook, Snowman): the text with its `[[links]]` taken out.
    mutating func renderPlain(_ s: [Unicode.Scalar], _ from: Int, _ to: Int) throws(TwineInterrupt) {
        try charge(to - from)
        let (text, links) = Twee.links(in: TwineMarkup.string(s[from..<to]))
        output += text
        for link in links { addChoice(TwineChoice(text: link.text, target: link.chapterID), macro: "a link") }
    }

    // MARK: Links

    /// `[[text->target]]`, `[[target<-text]]`, `[[text|target]]`, `[[target]]`, with SugarCube's setter `][$x to 1]`.
    static func link(_ inner: String) -> (text: String, target: String, setter: String?) {
        var body = inner
        var setter: String?
        if let bar = inner.range(of: "][") {
            body = String(inner[..<bar.lowerBound])
            setter = String(inner[bar.upperBound...])
        }
        let (text, target) = Twee.split(body)
        return (text, target, setter)
    }

}

extension TwineValue {
    var listItems: [TwineValue]? {
        if case .list(let items) = self { return items }
        return nil
    }
}

struct TwineExtras: Sendable {
    var ready: [String] = []
    var headers: [String] = []
    var footers: [String] = []
    /// The passages these come from.
    var names: [String] = []

    init() {}

    init(_ story: TwineStory) {
        for passage in story.passages {
            if TwineSpecial.isReady(passage, format: story.format) || TwineSpecial.isHeader(passage, format: story.format)
                || TwineSpecial.isFooter(passage, format: story.format)
            {
                names.append(passage.name)
            }
            if TwineSpecial.isReady(passage, format: story.format) { ready.append(passage.text) }
            if TwineSpecial.isHeader(passage, format: story.format) { headers.append(passage.text) }
            if TwineSpecial.isFooter(passage, format: story.format) { footers.append(passage.text) }
        }
    }
}

/// The passages a story format treats specially: run at the start, around every passage, or never shown.
enum TwineSpecial {
    static let sugarCubeSpecial: Set<String> = [
        "StoryInit", "StoryCaption", "StoryMenu", "StoryBanner", "StorySubtitle", "StoryAuthor", "StoryDisplayTitle", "StoryShare",
        "StoryInterface", "PassageReady", "PassageDone", "PassageHeader", "PassageFooter", "StoryTitle", "StoryData",
    ]

    static func isStartup(_ passage: TwineStory.Passage, format: TwineStory.Format) -> Bool {
        format == .sugarcube ? passage.name == "StoryInit" : passage.tags.contains("startup") || passage.tags.contains("debug-startup")
    }

    static func isReady(_ passage: TwineStory.Passage, format: TwineStory.Format) -> Bool {
        format == .sugarcube && passage.name == "PassageReady"
    }

    static func isHeader(_ passage: TwineStory.Passage, format: TwineStory.Format) -> Bool {
        format == .sugarcube ? passage.name == "PassageHeader" : (format == .harlowe && passage.tags.contains("header"))
    }

    static func isFooter(_ passage: TwineStory.Passage, format: TwineStory.Format) -> Bool {
        format == .sugarcube ? passage.name == "PassageFooter" : (format == .harlowe && passage.tags.contains("footer"))
    }

    /// Not a chapter of its own: run by the format, or a library of widgets.
    static func isHidden(_ passage: TwineStory.Passage, format: TwineStory.Format) -> Bool {
        switch format {
        case .sugarcube: sugarCubeSpecial.contains(passage.name) || passage.tags.contains("widget")
        case .harlowe:
            passage.tags.contains { ["startup", "debug-startup", "header", "footer", "debug-header", "debug-footer"].contains($0) }
        case .other: false
        }
    }
}

/// The text a run gathered, as paragraphs in Trove's Markdown subset. Works on UTF-8 bytes (every mark is ASCII):
/// Foundation's string search was most of the time of a 500-passage import.
enum TwineText {
    static let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), carriageReturn = UInt8(ascii: "\r")

    static func paragraphs(_ text: String) -> [String] {
        var paragraphs: [String] = []
        var paragraph: [UInt8] = []
        var line: [UInt8] = []
        var pendingSpace = false
        func endLine() {
            if line.isEmpty {
                if !paragraph.isEmpty {
                    paragraphs.append(markdown(paragraph))
                    paragraph.removeAll(keepingCapacity: true)
                }
            } else {
                if !paragraph.isEmpty { paragraph.append(newline) }
                paragraph.append(contentsOf: line)
                line.removeAll(keepingCapacity: true)
            }
            pendingSpace = false
        }
        for c in text.utf8 {
            switch c {
            case newline: endLine()
            case carriageReturn: continue
            case space, tab:
                // Spaces left where links and macros were taken out become one; none at a line's ends.
                pendingSpace = !line.isEmpty
            default:
                if pendingSpace {
                    line.append(space)
                    pendingSpace = false
                }
                line.append(c)
            }
        }
        endLine()
        if !paragraph.isEmpty { paragraphs.append(markdown(paragraph)) }
        return paragraphs
    }

    static func markdown(_ text: String) -> String { markdown(Array(text.utf8)) }

    /// Twine's `''strong''` and `//emphasis//` as Trove's `**strong**` and `*emphasis*`; strike and underline marks dropped.
    static func markdown(_ text: [UInt8]) -> String {
        var out = text
        for (mark, replacement) in [("''", "**"), ("//", "*"), ("~~", ""), ("__", "")] {
            out = pairs(of: Array(mark.utf8), in: out, replacedWith: Array(replacement.utf8))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Each two `mark`s around some text become `replacement`; a lone mark, and `//` in an address (`https://`), stay.
    static func pairs(of m: [UInt8], in s: [UInt8], replacedWith replacement: [UInt8]) -> [UInt8] {
        var marks: [Int] = []
        var i = 0
        while i + 1 < s.count {
            if s[i] == m[0], s[i + 1] == m[1], !(m[0] == UInt8(ascii: "/") && i > 0 && s[i - 1] == UInt8(ascii: ":")) {
                marks.append(i)
                i += 2
            } else {
                i += 1
            }
        }
        guard marks.count >= 2 else { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var last = 0
        var k = 0
        while k + 1 < marks.count {
            let (open, close) = (marks[k], marks[k + 1])
            guard close > open + 2 else {
                k += 1
                continue
            }
            out.append(contentsOf: s[last..<open])
            out.append(contentsOf: replacement)
            out.append(contentsOf: s[(open + 2)..<close])
            out.append(contentsOf: replacement)
            last = close + 2
            k += 2
        }
        out.append(contentsOf: s[last...])
        return out
    }

    /// `https://…` and other addresses: a link to one is words, not a choice.
    static func isAddress(_ target: String) -> Bool {
        var scheme = 0
        for c in target.unicodeScalars {
            if c == ":" { return scheme > 0 && target.unicodeScalars.dropFirst(scheme).starts(with: "://".unicodeScalars) }
            guard c.isASCII, c.isAlphabetic || (scheme > 0 && (("0"..."9").contains(c) || c == "+" || c == "." || c == "-"))
            else { return false }
            scheme += 1
        }
        return false
    }

    /// A passage's prose with its `[[links]]` taken out (the words of a link to an address, or in a sentence, kept).
    static func withoutLinks(_ text: String) -> String {
        let s = Array(text.unicodeScalars)
        var out = ""
        var i = 0
        while let open = TwineMarkup.find("[[", s, i, s.count), let close = TwineMarkup.find("]]", s, open + 2, s.count) {
            out += TwineMarkup.string(s[i..<open])
            let link = TwineRun.link(TwineMarkup.string(s[(open + 2)..<close]))
            if isAddress(link.target) || TwineMarkup.linkInProse(s, open, close + 2) { out += link.text }
            i = close + 2
        }
        out += TwineMarkup.string(s[i...])
        return paragraphs(out).joined(separator: "\n\n")
    }
}
