import Foundation

/// A Twine story as today's `Story`, and whether reading it needs `TwineInterpreter`.
public struct TwineImport: Sendable, Equatable {
    public let twine: TwineStory
    /// One chapter per passage (the format's special passages left out). Without state, each chapter is the
    /// passage as the reader sees it and plays in today's reader unchanged; with state, its choices are every
    /// passage a link or a link/goto macro names (so maps and reachability see them) and its text the
    /// passage's prose with the links taken out.
    public let story: Story
    /// The story keeps variables, tests conditions, or jumps with (goto:)/<<goto>>: play it with `TwineInterpreter`.
    public let needsInterpreter: Bool
    public let warnings: [String]
    /// Passages only `(display:)`/`<<include>>` reach: not unreachable, though no choice leads there.
    public var included: Set<String> = []
}

extension TwineStory {
    static let statefulHarlowe: Set<String> = [
        "set", "put", "move", "if", "unless", "elseif", "else", "print", "goto", "history", "visited", "random", "either", "linkundo",
        "undo", "link", "linkreveal", "linkrerun", "linkrepeat", "linkrevealgoto", "cond", "count", "num", "number", "str", "string",
        "text",
    ]
    static let statefulSugarCube: Set<String> = [
        "set", "unset", "run", "if", "switch", "print", "=", "-", "goto", "back", "return", "link", "button", "linkreplace", "linkappend",
        "linkprepend", "silently", "capture",
    ]
    static let supportedHarlowe: Set<String> = Set([
        "set", "put", "move", "if", "unless", "elseif", "else", "print", "display", "goto", "linkgoto", "clickgoto", "linkrevealgoto",
        "link", "linkreveal", "linkrerun", "linkrepeat", "linkundo", "undo", "hidden", "collapse", "nobr", "verbatim", "v6m",
    ]).union(TwineRun.harloweValues).union(TwineRun.harloweStyling)
    static let supportedSugarCube: Set<String> = [
        "set", "run", "unset", "print", "=", "-", "if", "elseif", "else", "switch", "case", "default", "include", "display", "goto", "link",
        "button", "linkreplace", "linkappend", "linkprepend", "back", "return", "actions", "choice", "nobr", "silently", "capture",
    ]

    /// What a static reading of a passage finds: the passages its links and link/goto macros name (whatever the
    /// state), the passages it includes, the macros it uses, and whether it depends on state.
    struct Scan {
        var choices: [Choice] = []
        var includes: [String] = []
        var macros: [String] = []
        var usesState = false
        var branches = TwineBranches()
    }

    func scan(_ passage: Passage, work: TwineWork = TwineWork()) -> Scan {
        var result = Scan()
        let s = Array(passage.text.unicodeScalars)
        var i = 0
        /// A `(link:)` hook or a `<<link>>` body being read, with the link's words for a `(goto:)` inside it.
        var linkWords: (text: String, end: Int)?
        func add(_ target: String, _ text: String?) {
            let target = resolve(target) ?? target
            let words = text ?? (linkWords.flatMap { i < $0.end ? $0.text : nil }) ?? target
            result.choices.append(Choice(chapterID: target, text: words))
            result.branches.move(at: i)
        }
        func literalStrings(_ args: String) -> [String?] {
            ((try? TwineParser.arguments(args, harlowe: true)) ?? []).map { if case .literal(.string(let text)) = $0 { text } else { nil } }
        }
        while i < s.count {
            guard work.consume() else { break }
            let c = s[i]
            if c == "[", TwineMarkup.starts("[[", s, i), !TwineMarkup.starts("[[[", s, i),
                let close = TwineMarkup.find("]]", s, i + 2, s.count, work: work)
            {
                let link = TwineRun.link(TwineMarkup.string(s[(i + 2)..<close]))
                if link.setter != nil { result.usesState = true }
                if !TwineText.isAddress(link.target) { add(link.target, link.text) }
                i = close + 2
                continue
            }
            if c == "$" || c == "_", i + 1 < s.count, TwineMarkup.isWordStart(s[i + 1]), c == "$" || i == 0 || !TwineMarkup.isWord(s[i - 1])
            {
                if format == .harlowe || format == .sugarcube { result.usesState = true }
            }
            if format == .harlowe, c == "(", let (raw, argsStart) = TwineMarkup.macroName(s, i, s.count),
                let close = TwineMarkup.matchParen(s, i, s.count, work: work)
            {
                let name = TwineExpression.fold(raw)
                let args = TwineMarkup.string(s[argsStart..<close])
                if !result.macros.contains("(\(raw):)") { result.macros.append("(\(raw):)") }
                if Self.statefulHarlowe.contains(name) { result.usesState = true }
                let strings = literalStrings(args)
                switch name {
                case "linkgoto", "clickgoto", "linkrevealgoto":
                    if strings.count > 1, let target = strings[1] {
                        add(target, strings[0])
                    } else if strings.count == 1, let target = strings[0] {
                        add(target, target)
                    }
                case "goto":
                    if let target = strings.first ?? nil { add(target, nil) }
                case "display":
                    if let target = strings.first ?? nil { result.includes.append(resolve(target) ?? target) }
                case "if", "unless", "elseif", "else":
                    if close + 1 < s.count, s[close + 1] == "[", let end = TwineMarkup.matchHook(s, close + 1, s.count, work: work) {
                        result.branches.harloweHook(name, start: close + 1, end: end)
                    }
                case "link", "linkreveal", "linkrerun", "linkrepeat":
                    if let text = strings.first ?? nil, close + 1 < s.count, s[close + 1] == "[",
                        let end = TwineMarkup.matchHook(s, close + 1, s.count, work: work)
                    {
                        linkWords = (text, end)
                    }
                default: break
                }
                // Inside the arguments only strings; the walk goes on inside hooks.
                i = close + 1
                continue
            }
            if format == .sugarcube, c == "<", let macro = TwineMarkup.sugarMacro(s, i, s.count, work: work) {
                let name = macro.name
                if !name.hasPrefix("/"), !result.macros.contains("<<\(name)>>") { result.macros.append("<<\(name)>>") }
                if Self.statefulSugarCube.contains(name) { result.usesState = true }
                let arguments = TwineMarkup.sugarArguments(macro.args)
                func target(_ argument: TwineMarkup.SugarArgument) -> String? {
                    switch argument {
                    case .link(_, let target, _): target
                    case .text(let text): text
                    case .expression: nil
                    }
                }
                func words(_ argument: TwineMarkup.SugarArgument) -> String? {
                    switch argument {
                    case .link(let text, _, _), .text(let text): text
                    case .expression: nil
                    }
                }
                switch name {
                case "link", "button":
                    if arguments.count > 1, let to = target(arguments[1]) {
                        add(to, arguments.first.flatMap(words))
                    } else if let first = arguments.first, case .link(let text, let to, _) = first {
                        add(to, text)
                    } else if let text = arguments.first.flatMap(words),
                        let body = TwineMarkup.sugarBody(name, s, macro.end, s.count, work: work)
                    {
                        linkWords = (text, body.bodyEnd)
                    }
                case "goto":
                    if let to = arguments.first.flatMap(target) { add(to, nil) }
                case "if", "switch":
                    let clauses: Set<String> = name == "if" ? ["elseif", "else"] : ["case", "default"]
                    if let body = TwineMarkup.sugarBody(name, s, macro.end, s.count, clauses: clauses, work: work) {
                        result.branches.sugarChain(
                            name, bodyStart: macro.end, bodyEnd: body.bodyEnd, clauses: body.clauses.map { ($0.name, $0.start, $0.end) })
                    }
                case "back", "return":
                    result.branches.move(at: i)
                case "include", "display":
                    if let to = arguments.first.flatMap(target) { result.includes.append(resolve(to) ?? to) }
                case "actions", "choice":
                    for argument in arguments { if let to = target(argument) { add(to, words(argument)) } }
                default: break
                }
                i = macro.end
                continue
            }
            i += 1
        }
        return result
    }

    /// A Twine file has no summary, so its catalog card showed none: the opening of its first passage, as a reader
    /// first sees it, stands in. Whole sentences up to about 200 characters, or the words that fit with "…"; without
    /// the emphasis marks (`**`, `*`) a passage is shown with.
    static func summary(opening paragraphs: [String]) -> String {
        let words = paragraphs.joined(separator: " ").replacingOccurrences(of: "*", with: "")
            .split(whereSeparator: \.isWhitespace)
        var summary = ""
        var sentences = ""
        for word in words {
            let next = summary.isEmpty ? String(word) : summary + " " + word
            guard next.count <= 200 else { return sentences.isEmpty ? summary + "…" : sentences }
            summary = next
            if let last = word.last, ".!?".contains(last) { sentences = summary }
        }
        return summary
    }

    /// Today's `Story` for this Twine story; see `TwineImport`.
    public func troveStory(work: TwineWork = TwineWork()) -> TwineImport {
        var warnings = self.warnings
        var warned = Set(warnings)
        func warn(_ warning: String) {
            warnings.append(warning)
            warned.insert(warning)
        }
        let shown = passages.filter { !TwineSpecial.isHidden($0, format: format) }
        let scans = Dictionary(shown.map { ($0.name, scan($0, work: work)) }, uniquingKeysWith: { _, later in later })
        let needsInterpreter =
            passages.contains { TwineSpecial.isStartup($0, format: format) || TwineSpecial.isReady($0, format: format) }
            || scans.values.contains { $0.usesState }
        let names = Set(shown.map(\.name))
        let interpreter = TwineInterpreter(self)
        var chapters: [Chapter] = []
        for passage in shown {
            let scan = scans[passage.name] ?? Scan()
            for macro in scan.macros where !isSupported(macro) {
                warn("Passage \"\(passage.name)\" uses \(macro), which Trove shows as text.")
            }
            var text: String
            var choices: [Choice] = []
            if needsInterpreter {
                text = TwineText.withoutLinks(passage.text)
                var chosen = Set<String>()
                for choice in scan.choices where chosen.insert(choice.chapterID).inserted {
                    if names.contains(choice.chapterID) {
                        choices.append(choice)
                    } else {
                        warn("Passage \"\(passage.name)\" leads to \"\(choice.chapterID)\", which does not exist.")
                    }
                }
            } else {
                let rendered = interpreter.render(passage: passage.name, state: ReaderState(), work: work)
                text = rendered.text
                choices = rendered.choices.map { Choice(chapterID: $0.target, text: $0.text) }
                for warning in rendered.warnings where !warned.contains(warning) { warn(warning) }
            }
            if choices.count > StoryValidation.Limits.choicesPerChapter {
                warn(
                    "Passage \"\(passage.name)\" names \(choices.count) passages; the map shows the first \(StoryValidation.Limits.choicesPerChapter)."
                )
                choices = Array(choices.prefix(StoryValidation.Limits.choicesPerChapter))
            }
            if text.twineTrimmed.isEmpty { text = passage.name.twineTrimmed }
            chapters.append(
                Chapter(
                    id: passage.name, name: passage.name, isFirst: passage.name == start, text: text, choices: choices,
                    endsOnSomePaths: needsInterpreter && !choices.isEmpty && !scan.branches.alwaysMovesOn))
        }
        let story = Story(
            id: ifid?.lowercased() ?? Twee.slug(name), name: name,
            summary: Self.summary(opening: interpreter.start(work: work).passage.paragraphs), chapters: chapters)
        var included = Set<String>()
        for scan in scans.values { included.formUnion(scan.includes) }
        for passage in passages where TwineSpecial.isHidden(passage, format: format) {
            included.formUnion(scan(passage, work: work).includes)
        }
        return TwineImport(twine: self, story: story, needsInterpreter: needsInterpreter, warnings: warnings, included: included)
    }

    /// Passages only `(display:)`/`<<include>>` reach: not unreachable, though no choice leads there.
    public func includedPassages() -> Set<String> {
        var included = Set<String>()
        for passage in passages { included.formUnion(scan(passage).includes) }
        return included
    }

    func isSupported(_ macro: String) -> Bool {
        if macro.hasPrefix("<<") {
            let name = String(macro.dropFirst(2).dropLast(2))
            return Self.supportedSugarCube.contains(name) || name.hasPrefix("end")
        }
        return Self.supportedHarlowe.contains(TwineExpression.fold(macro.dropFirst().dropLast(2)))
    }
}
