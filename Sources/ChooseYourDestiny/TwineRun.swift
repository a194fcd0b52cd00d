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
    /// Harlowe's `it` while a `(set:)` computes a variable's new value.
    var it: TwineValue?
    /// Markup characters walked in one step (its gotos included); stops a story that `(display:)`s itself without end.
    static let budget = 1_000_000
    var budget = TwineRun.budget
    /// The markup of the format's header, footer and "ready" passages, run with every passage.
    var extras = TwineExtras()

    init(story: TwineStory, passage: String, state: ReaderState) {
        self.story = story
        self.passage = passage
        self.state = state
    }

    var harlowe: Bool { story.format != .sugarcube }

    /// The current passage, with the format's header and footer passages around it.
    mutating func renderPassage() -> TwineOutcome {
        guard let text = story.passage(named: passage)?.text else {
            return .stopped("The story stopped here: there is no passage \"\(passage)\".")
        }
        do throws(TwineInterrupt) {
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

    // MARK: Values

    mutating func value(of expression: TwineExpression) throws(TwineEvalError) -> TwineValue {
        switch expression {
        case .literal(let value): return value
        case .variable(let name): return state.variables[name] ?? (harlowe ? .number(0) : .undefined)
        case .temporary(let name): return temporaries[name] ?? (harlowe ? .number(0) : .undefined)
        case .it:
            guard let it else { throw TwineEvalError(description: "'it' means the variable being set, and nothing is being set here") }
            return it
        case .list(let items):
            var values: [TwineValue] = []
            for item in items { values.append(try value(of: item)) }
            return .list(values)
        case .unary(let op, let operand):
            if op == "def" {
                switch operand {
                case .variable(let name): return .bool(state.variables[name].map { $0 != .undefined } ?? false)
                case .temporary(let name): return .bool(temporaries[name].map { $0 != .undefined } ?? false)
                default: return .bool(try value(of: operand) != .undefined)
                }
            }
            let v = try value(of: operand)
            switch op {
            case "not": return .bool(!v.isTruthy)
            case "-", "+":
                guard case .number(let n) = v else { throw TwineEvalError(description: "\(op) needs a number, not \(v.typeName)") }
                return .number(op == "-" ? -n : n)
            default: throw TwineEvalError(description: "\(op) is not understood")
            }
        case .binary(let op, let left, let right):
            if op == "and" { return .bool(try value(of: left).isTruthy ? try value(of: right).isTruthy : false) }
            if op == "or" { return .bool(try value(of: left).isTruthy ? true : try value(of: right).isTruthy) }
            return try Self.apply(op, try value(of: left), try value(of: right))
        case .call(let name, let arguments):
            return try call(name, arguments)
        case .member(let subject, let name):
            let v = try value(of: subject)
            switch (v, name) {
            case (.string(let s), "length"): return .number(Double(s.count))
            case (.list(let l), "length"): return .number(Double(l.count))
            case (.list(let l), "last"): return l.last ?? .undefined
            case (.list(let l), "first"): return l.first ?? .undefined
            case (.string(let s), "last"): return s.last.map { .string(String($0)) } ?? .undefined
            case (.string(let s), "first"): return s.first.map { .string(String($0)) } ?? .undefined
            default: throw TwineEvalError(description: "\(v.typeName) has no .\(name)")
            }
        case .method(let subject, let name, let arguments):
            return try method(subject, name, arguments)
        case .index(let subject, let index):
            let v = try value(of: subject)
            let i = try value(of: index)
            guard case .number(let n) = i, n >= 0, n < 1e9, n == n.rounded() else {
                throw TwineEvalError(description: "a position must be a whole number")
            }
            switch v {
            case .list(let l): return Int(n) < l.count ? l[Int(n)] : .undefined
            case .string(let s): return Int(n) < s.count ? .string(String(s[s.index(s.startIndex, offsetBy: Int(n))])) : .undefined
            default: throw TwineEvalError(description: "\(v.typeName) has no positions")
            }
        }
    }

    static func apply(_ op: String, _ a: TwineValue, _ b: TwineValue) throws(TwineEvalError) -> TwineValue {
        switch op {
        case "+":
            switch (a, b) {
            case let (.number(x), .number(y)): return .number(x + y)
            case let (.list(x), .list(y)): return .list(x + y)
            case (.string, _), (_, .string): return .string(a.text + b.text)
            default: throw TwineEvalError(description: "cannot add \(b.typeName) to \(a.typeName)")
            }
        case "-":
            switch (a, b) {
            case let (.number(x), .number(y)): return .number(x - y)
            case let (.list(x), .list(y)): return .list(x.filter { !y.contains($0) })
            default: throw TwineEvalError(description: "cannot subtract \(b.typeName) from \(a.typeName)")
            }
        case "*", "/", "%":
            guard case .number(let x) = a, case .number(let y) = b else {
                throw TwineEvalError(description: "\(op) needs two numbers, not \(a.typeName) and \(b.typeName)")
            }
            if op == "*" { return .number(x * y) }
            guard y != 0 else { throw TwineEvalError(description: "division by zero") }
            return .number(op == "/" ? x / y : x.truncatingRemainder(dividingBy: y))
        case "===": return .bool(a == b)
        case "!==": return .bool(a != b)
        case "==": return .bool(a.looselyEquals(b))
        case "!=": return .bool(!a.looselyEquals(b))
        case "<", ">", "<=", ">=":
            let order: Int
            switch (a, b) {
            case let (.number(x), .number(y)): order = x < y ? -1 : (x > y ? 1 : 0)
            case let (.string(x), .string(y)): order = x < y ? -1 : (x > y ? 1 : 0)
            default: throw TwineEvalError(description: "cannot compare \(a.typeName) with \(b.typeName) using \(op)")
            }
            switch op {
            case "<": return .bool(order < 0)
            case ">": return .bool(order > 0)
            case "<=": return .bool(order <= 0)
            default: return .bool(order >= 0)
            }
        case "contains", "notcontains", "in", "notin":
            let (container, item) = op == "contains" || op == "notcontains" ? (a, b) : (b, a)
            let found: Bool
            switch container {
            case .string(let s): found = s.contains(item.text)
            case .list(let l): found = l.contains(item)
            default: throw TwineEvalError(description: "\(container.typeName) cannot contain anything")
            }
            return .bool(op == "contains" || op == "in" ? found : !found)
        default:
            throw TwineEvalError(description: "\(op) is not understood")
        }
    }

    mutating func values(_ arguments: [TwineExpression]) throws(TwineEvalError) -> [TwineValue] {
        var list: [TwineValue] = []
        for argument in arguments { list.append(try value(of: argument)) }
        return list
    }

    /// A deterministic generator kept in the state (SplitMix64), so replaying a path repeats its dice.
    mutating func random(below bound: Int) -> Int {
        state.seed &+= 0x9E37_79B9_7F4A_7C15
        var z = state.seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return bound <= 0 ? 0 : Int(z % UInt64(bound))
    }

    var previousPassages: [String] { Array(state.history.dropLast()) }

    mutating func call(_ name: String, _ arguments: [TwineExpression]) throws(TwineEvalError) -> TwineValue {
        let args = try values(arguments)
        func number(_ i: Int) throws(TwineEvalError) -> Double {
            guard i < args.count, case .number(let n) = args[i] else {
                throw TwineEvalError(description: "(\(name):) needs a number as its value \(i + 1)")
            }
            return n
        }
        switch name {
        case "history": return .list(previousPassages.map(TwineValue.string))
        case "visits": return .number(Double(state.history.filter { $0 == passage }.count))
        case "visited":
            if harlowe {
                guard let first = args.first else { return .bool(true) }
                return .bool(state.history.contains(first.text))
            }
            let names = args.isEmpty ? [passage] : args.flatMap { if case .list(let l) = $0 { l.map(\.text) } else { [$0.text] } }
            return .number(Double(names.map { name in state.history.filter { $0 == name }.count }.min() ?? 0))
        case "hasvisited":
            let names = args.flatMap { if case .list(let l) = $0 { l.map(\.text) } else { [$0.text] } }
            return .bool(!names.isEmpty && names.allSatisfy(state.history.contains))
        case "lastvisited":
            guard let first = args.first, let last = state.history.lastIndex(of: first.text) else { return .number(-1) }
            return .number(Double(state.history.count - 1 - last))
        case "turns": return .number(Double(state.history.count))
        case "passage": return .string(passage)
        case "previous": return .string(previousPassages.last ?? "")
        case "tags": return .list((story.passage(named: passage)?.tags ?? []).map(TwineValue.string))
        case "random":
            let (low, high) = args.count >= 2 ? (try number(0), try number(1)) : (0, try number(0))
            guard abs(low) < 1e12, abs(high) < 1e12 else { throw TwineEvalError(description: "(random:) needs numbers below a trillion") }
            let (a, b) = (Int(min(low, high).rounded(.up)), Int(max(low, high).rounded(.down)))
            return .number(Double(a + random(below: b - a + 1)))
        case "either":
            let pool = args.count == 1 ? (args[0].listItems ?? args) : args
            guard !pool.isEmpty else { throw TwineEvalError(description: "(either:) needs something to choose from") }
            return pool[random(below: pool.count)]
        case "a", "array": return .list(args)
        case "str", "string", "text": return .string(args.map(\.text).joined())
        case "num", "number":
            guard let first = args.first, let n = Double(first.text.twineTrimmed) else {
                throw TwineEvalError(description: "(\(name):) needs text that is a number")
            }
            return .number(n)
        case "cond":
            var i = 0
            while i + 1 < args.count {
                if args[i].isTruthy { return args[i + 1] }
                i += 2
            }
            guard i < args.count else { throw TwineEvalError(description: "(cond:) has no value for when nothing holds") }
            return args[i]
        case "min", "max":
            var numbers: [Double] = []
            for i in args.indices { numbers.append(try number(i)) }
            guard let result = name == "min" ? numbers.min() : numbers.max() else {
                throw TwineEvalError(description: "(\(name):) needs numbers")
            }
            return .number(result)
        case "round": return .number((try number(0)).rounded(.toNearestOrAwayFromZero))
        case "floor": return .number((try number(0)).rounded(.down))
        case "ceil": return .number((try number(0)).rounded(.up))
        case "abs": return .number(abs(try number(0)))
        case "count":
            guard args.count >= 2 else { throw TwineEvalError(description: "(count:) needs a list or text and a value") }
            switch args[0] {
            case .list(let l): return .number(Double(args.dropFirst().map { v in l.filter { $0 == v }.count }.reduce(0, +)))
            case .string(let s): return .number(Double(s.components(separatedBy: args[1].text).count - 1))
            default: throw TwineEvalError(description: "(count:) needs a list or text")
            }
        case "lowercase": return .string((args.first?.text ?? "").lowercased())
        case "uppercase": return .string((args.first?.text ?? "").uppercased())
        default:
            throw TwineEvalError(description: harlowe ? "(\(name):) is not a macro Trove runs" : "\(name)() is not a function Trove runs")
        }
    }

    mutating func method(_ subject: TwineExpression, _ name: String, _ arguments: [TwineExpression]) throws(TwineEvalError) -> TwineValue {
        let receiver = try value(of: subject)
        let args = try values(arguments)
        switch (receiver, name) {
        case (_, "includes"), (_, "contains"):
            guard let item = args.first else { throw TwineEvalError(description: ".\(name)() needs a value") }
            return try Self.apply("contains", receiver, item)
        case (.list(let list), "indexOf"): return .number(Double(args.first.flatMap { list.firstIndex(of: $0) } ?? -1))
        case (.string(let s), "indexOf"):
            guard let needle = args.first?.text, let range = s.range(of: needle) else { return .number(-1) }
            return .number(Double(s.distance(from: s.startIndex, to: range.lowerBound)))
        case (.string(let s), "toUpperCase"): return .string(s.uppercased())
        case (.string(let s), "toLowerCase"): return .string(s.lowercased())
        case (.list(let list), "count"): return .number(Double(list.filter { $0 == args.first }.count))
        case (.list(let list), "join"): return .string(list.map(\.text).joined(separator: args.first?.text ?? ","))
        case (.list(var list), "push"), (.list(var list), "pushUnique"):
            for arg in args where name == "push" || !list.contains(arg) { list.append(arg) }
            try store(.list(list), into: subject)
            return .number(Double(list.count))
        case (.undefined, "push"):
            try store(.list(args), into: subject)
            return .number(Double(args.count))
        case (.list(var list), "delete"):
            list.removeAll { args.contains($0) }
            try store(.list(list), into: subject)
            return .list(list)
        default:
            throw TwineEvalError(description: "\(receiver.typeName) has no .\(name)() that Trove runs")
        }
    }

    mutating func store(_ value: TwineValue, into target: TwineExpression) throws(TwineEvalError) {
        switch target {
        case .variable(let name): state.variables[name] = value
        case .temporary(let name): temporaries[name] = value
        default: throw TwineEvalError(description: "only a $variable or a _variable can be changed")
        }
    }

    mutating func run(_ statements: [TwineStatement]) throws(TwineEvalError) {
        for statement in statements {
            switch statement {
            case .evaluate(let expression):
                _ = try value(of: expression)
            case .assign(let target, let op, let expression):
                let current = try value(of: target)
                it = current
                defer { it = nil }
                var new = try value(of: expression)
                if op != "=" { new = try Self.apply(String(op.dropLast()), current, new) }
                try store(new, into: target)
            }
        }
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

    init() {}

    init(_ story: TwineStory) {
        for passage in story.passages {
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
