import Foundation

/// Harlowe 3 markup: macros `(name: …)` with their hooks `[…]`, `[[links]]`, naked `$var`/`_var`, `{ }` whitespace
/// collapsing, named hooks, verbatim `` ` ``, HTML comments and tags.
extension TwineRun {
    static let harloweStyling: Set<String> = [
        "textstyle", "textcolour", "textcolor", "colour", "color", "background", "bg", "align", "font", "css", "transition", "t8n",
        "transitiontime", "t8ntime", "transitiondelay", "t8ndelay", "transitionskip", "textsize", "size", "textrotate", "textrotatez",
        "hoverstyle", "box", "float", "textindent", "opacity", "charstyle", "linestyle", "linkstyle", "border", "bordercolour",
        "bordercolor", "bordersize", "cornerradius", "textcolour", "transitionarrive", "transitiondepart", "t8narrive", "t8ndepart",
    ]
    static let harloweValues: Set<String> = [
        "history", "visited", "a", "array", "str", "string", "text", "num", "number", "random", "either", "cond", "min", "max",
        "round", "floor", "ceil", "abs", "count", "lowercase", "uppercase",
    ]
    /// Macros that never take a hook: a `[` after them starts text (or a link).
    static let harloweNoHook: Set<String> = Set([
        "set", "put", "move", "print", "display", "goto", "linkgoto", "clickgoto", "linkundo", "undo", "unset",
    ])
    .union(harloweValues)

    mutating func renderHarlowe(_ s: [Unicode.Scalar], _ from: Int, _ to: Int) throws(TwineInterrupt) {
        try enterMarkup()
        defer { markupNesting -= 1 }
        var i = from
        /// Whether an earlier hook in this (if:)/(else-if:)/(else:) chain was shown.
        var chainShown: Bool?
        while i < to {
            try charge(1)
            if let next = try harloweStep(s, &i, from, to, &chainShown) { try renderNested(next, s) }
        }
    }

    /// One mark (or one character) of the walk at `i`, moving `i` past it; what it shows inside itself is returned.
    mutating func harloweStep(_ s: [Unicode.Scalar], _ i: inout Int, _ from: Int, _ to: Int, _ chainShown: inout Bool?)
        throws(TwineInterrupt) -> NestedMarkup?
    {
        let c = s[i]
        if c == "[", i + 1 < to, s[i + 1] == "[", !(i + 2 < to && s[i + 2] == "["),
            let close = TwineMarkup.find("]]", s, i + 2, to, work: work)
        {
            let (text, target, _) = Self.link(TwineMarkup.string(s[(i + 2)..<close]))
            if TwineText.isAddress(target) {
                output += text
            } else {
                if TwineMarkup.linkInProse(s, i, close + 2) { output += text }
                addChoice(TwineChoice(text: text, target: target), macro: "a link")
            }
            i = close + 2
            return nil
        }
        if c == "(", let (rawName, argsStart) = TwineMarkup.macroName(s, i, to), let close = TwineMarkup.matchParen(s, i, to, work: work) {
            let name = TwineExpression.fold(rawName)
            let args = TwineMarkup.string(s[argsStart..<close])
            var hook: Range<Int>?
            var after = close + 1
            if !Self.harloweNoHook.contains(name) {
                var k = after
                while k < to, s[k] == " " || s[k] == "\t" { k += 1 }
                if k < to, s[k] == "[", let end = TwineMarkup.matchHook(s, k, to, work: work) {
                    hook = (k + 1)..<end
                    after = end + 1
                }
            }
            let next = try harloweMacro(name, raw: TwineMarkup.string(s[i...close]), args: args, hook: hook, in: s, chainShown: &chainShown)
            i = after
            return next
        }
        if c == "$" || (c == "_" && (i == from || !TwineMarkup.isWord(s[i - 1]))), i + 1 < to, TwineMarkup.isWordStart(s[i + 1]) {
            var j = i + 1
            while j < to, TwineMarkup.isWord(s[j]) { j += 1 }
            let name = TwineMarkup.string(s[(i + 1)..<j])
            if c == "$" {
                output += (state.variables[name] ?? .number(0)).text
            } else if let value = temporaries[name] {
                output += value.text
            } else {
                output += "_" + name
            }
            i = j
            return nil
        }
        if c == "{", let close = TwineMarkup.matchBrace(s, i, to, work: work) {
            let inside = (i + 1)..<close
            i = close + 1
            return .collapsed(inside)
        }
        if c == "|", let (hookStart, _) = TwineMarkup.nametag(s, i, to) {
            // `|name>[…]`: the name is for (show:)/(replace:), which Trove does not run; the hook is shown.
            i = hookStart
            return nil
        }
        if c == "[", let end = TwineMarkup.matchHook(s, i, to, work: work) {
            let hook = (i + 1)..<end
            i = end + 1
            // `[…]<name|`
            if i < to, s[i] == "<", let bar = TwineMarkup.findScalar("|", s, i + 1, min(to, i + 40)),
                s[(i + 1)..<bar].allSatisfy(TwineMarkup.isWord)
            {
                i = bar + 1
            }
            return .markup(hook)
        }
        if c == "`" {
            var run = 0
            while i + run < to, s[i + run] == "`" { run += 1 }
            let fence = String(repeating: "`", count: run)
            if let close = TwineMarkup.find(fence, s, i + run, to, work: work) {
                output += TwineMarkup.string(s[(i + run)..<close])
                i = close + run
                return nil
            }
        }
        try plainText(c, s, &i, to)
        return nil
    }

    /// Runs a macro; what it shows inside (its hook, a passage) is returned for `renderNested`, so that the walk
    /// recurses through small stack frames only.
    mutating func harloweMacro(
        _ name: String, raw: String, args: String, hook: Range<Int>?, in s: [Unicode.Scalar], chainShown: inout Bool?
    ) throws(TwineInterrupt) -> NestedMarkup? {
        let label = "(\(name):)"
        do {
            switch name {
            case "set":
                try run(try TwineParser.assignments(args, harlowe: true))
            case "put", "move":
                try run(try TwineParser.puts(args))
            case "if", "unless", "elseif", "else":
                let show: Bool
                switch name {
                case "else":
                    show = chainShown == false
                case "elseif":
                    show = chainShown == false ? try condition(args) : false
                default:
                    let holds = try condition(args)
                    show = name == "if" ? holds : !holds
                }
                chainShown = (name == "if" || name == "unless") ? show : ((chainShown ?? true) || show)
                guard let hook else {
                    warn("Passage \"\(passage)\": \(label) has no hook [ ] after it to show or hide.")
                    return nil
                }
                if show { return .markup(hook) }
            case "print":
                output += try value(of: try TwineParser.expression(args, harlowe: true)).text
            case "display":
                return .passage(try text(args), macro: label)
            case "goto":
                throw TwineInterrupt.goto(try text(args))
            case "linkgoto", "clickgoto", "linkrevealgoto":
                let values = try arguments(args)
                guard let first = values.first else {
                    throw TwineEvalError(description: "\(label) needs the link's text and a passage name")
                }
                let target = values.count > 1 ? values[1].text : first.text
                let effect = hook.map { TwineMarkup.string(s[$0]) }
                addChoice(TwineChoice(text: first.text, target: target, effect: effect), macro: label)
            case "link", "linkreveal", "linkrerun", "linkrepeat":
                guard let hook else { throw TwineEvalError(description: "\(label) needs a hook [ ] to show when it is clicked") }
                let linkText = try text(args)
                let body = TwineMarkup.string(s[hook])
                if let target = try harloweGotoTarget(in: body) {
                    addChoice(TwineChoice(text: linkText, target: target, effect: body), macro: label)
                } else {
                    warn("Passage \"\(passage)\": \(label) \"\(linkText)\" leads nowhere, so Trove shows what it reveals at once.")
                    return .markup(hook)
                }
            case "linkundo", "undo":
                let previous = previousPassages.last
                guard let previous else { return nil }
                let linkText = name == "linkundo" ? (try? text(args)) ?? "Back" : "Back"
                choices.append(TwineChoice(text: linkText, target: previous, kind: .back))
            case "hidden":
                chainShown = false
            case "collapse", "nobr":
                if let hook { return .collapsed(hook) }
            case "verbatim", "v6m":
                if let hook { output += TwineMarkup.string(s[hook]) }
            case _ where Self.harloweValues.contains(name):
                output += try value(of: .call(name, try TwineParser.arguments(args, harlowe: true))).text
            case _ where Self.harloweStyling.contains(name):
                warn("Passage \"\(passage)\" uses \(label), whose styling Trove leaves out.")
                if let hook { return .markup(hook) }
            default:
                unsupported(label)
                output += raw
                if let hook { return .bracketed(hook) }
            }
        } catch let interrupt as TwineInterrupt {
            throw interrupt
        } catch {
            warn("Passage \"\(passage)\": \(label) \(error).")
        }
        return nil
    }

    mutating func condition(_ args: String) throws -> Bool {
        try value(of: try TwineParser.expression(args, harlowe: harlowe)).isTruthy
    }

    mutating func text(_ args: String) throws -> String {
        try value(of: try TwineParser.expression(args, harlowe: harlowe)).text
    }

    mutating func arguments(_ args: String) throws -> [TwineValue] {
        try values(try TwineParser.arguments(args, harlowe: harlowe))
    }

    /// Where a `(link:)` hook leads: its first `(goto:)`, if any.
    mutating func harloweGotoTarget(in body: String) throws -> String? {
        let s = Array(body.unicodeScalars)
        var i = 0
        while let open = TwineMarkup.findScalar("(", s, i, s.count) {
            if let (name, argsStart) = TwineMarkup.macroName(s, open, s.count), TwineExpression.fold(name) == "goto",
                let close = TwineMarkup.matchParen(s, open, s.count, work: work)
            {
                return try text(TwineMarkup.string(s[argsStart..<close]))
            }
            i = open + 1
        }
        return nil
    }

    /// HTML in a passage: `<br>` is a line break, `<p>` a paragraph, comments and other tags are dropped, and a
    /// `<script>` is kept as text with a warning. Nil when `<` starts no tag.
    /// What both formats do with a character no markup of theirs claimed: HTML's tags as `htmlMarkup` reads them, a
    /// backslash before a line break joining the lines, anything else shown as it is.
    mutating func plainText(_ c: Unicode.Scalar, _ s: [Unicode.Scalar], _ i: inout Int, _ to: Int) throws(TwineInterrupt) {
        if c == "<", let next = try htmlMarkup(s, i, to) {
            i = next
        } else if c == "\\", i + 1 < to, s[i + 1] == "\n" {
            i += 2
        } else {
            output.unicodeScalars.append(c)
            i += 1
        }
    }

    mutating func htmlMarkup(_ s: [Unicode.Scalar], _ i: Int, _ to: Int) throws(TwineInterrupt) -> Int? {
        if TwineMarkup.starts("<!--", s, i) {
            return (TwineMarkup.find("-->", s, i + 4, to, work: work).map { $0 + 3 }) ?? to
        }
        var j = i + 1
        let closing = j < to && s[j] == "/"
        if closing { j += 1 }
        guard j < to, s[j].isAlphabetic else { return nil }
        var k = j
        while k < to, TwineMarkup.isWord(s[k]) || s[k] == "-" { k += 1 }
        let tag = TwineMarkup.string(s[j..<k]).lowercased()
        guard let end = TwineMarkup.findScalar(">", s, k, to) else { return nil }
        switch tag {
        case "br": output += "\n"
        case "p", "div": output += "\n\n"
        case "script":
            guard !closing else { return end + 1 }
            unsupported("<script>")
            let close = TwineMarkup.find("</script>", s, end + 1, to, work: work).map { $0 + 9 } ?? to
            output += TwineMarkup.string(s[i..<close])
            return close
        case "b", "strong": output += "**"
        case "i", "em": output += "*"
        default: break
        }
        return end + 1
    }
}
