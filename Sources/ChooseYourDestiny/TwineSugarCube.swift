import Foundation

/// SugarCube 2 markup: `<<macros>>` (containers closed by `<</name>>`), `[[links]]` with setters, naked
/// `$var`/`_var` (with `.property`), comments, `@@style;…@@`, HTML.
extension TwineRun {
    static let sugarContainers: Set<String> = [
        "if", "link", "button", "nobr", "silently", "capture", "linkreplace", "linkappend", "linkprepend", "switch", "for", "script",
        "widget", "repeat", "timed", "type", "append", "prepend", "replace", "done", "createplaylist", "createaudiogroup", "cycle",
        "listbox", "dialog",
    ]

    mutating func renderSugarCube(_ s: [Unicode.Scalar], _ from: Int, _ to: Int) throws(TwineInterrupt) {
        try enterMarkup()
        defer { markupNesting -= 1 }
        var i = from
        while i < to {
            try charge(1)
            if let next = try sugarCubeStep(s, &i, from, to) { try renderNested(next, s) }
        }
    }

    /// One mark (or one character) of the walk at `i`, moving `i` past it; what it shows inside itself is returned.
    mutating func sugarCubeStep(_ s: [Unicode.Scalar], _ i: inout Int, _ from: Int, _ to: Int) throws(TwineInterrupt) -> NestedMarkup? {
        let c = s[i]
        if c == "<", i + 1 < to, s[i + 1] == "<", let macro = TwineMarkup.sugarMacro(s, i, to, work: work) {
            let (after, next) = try sugarMacro(macro.name, args: macro.args, start: i, end: macro.end, in: s, to)
            i = after
            return next
        }
        if c == "[", i + 1 < to, s[i + 1] == "[", let close = TwineMarkup.find("]]", s, i + 2, to, work: work) {
            let link = Self.link(TwineMarkup.string(s[(i + 2)..<close]))
            if TwineText.isAddress(link.target) {
                output += link.text
                i = close + 2
                return nil
            }
            if TwineMarkup.linkInProse(s, i, close + 2) { output += link.text }
            addChoice(TwineChoice(text: link.text, target: link.target, effect: link.setter.map { "<<set \($0)>>" }), macro: "a link")
            i = close + 2
            return nil
        }
        if c == "$" || (c == "_" && (i == from || !TwineMarkup.isWord(s[i - 1]))), i + 1 < to, TwineMarkup.isWordStart(s[i + 1]) {
            var j = i + 1
            while j < to, TwineMarkup.isWord(s[j]) { j += 1 }
            // `$a.b` and `$a[0]` are read too, as SugarCube's naked variables are.
            while j + 1 < to, s[j] == ".", TwineMarkup.isWordStart(s[j + 1]) {
                j += 2
                while j < to, TwineMarkup.isWord(s[j]) { j += 1 }
            }
            let source = TwineMarkup.string(s[i..<j])
            if c == "_", temporaries[String(source.dropFirst()).components(separatedBy: ".")[0]] == nil {
                output += source
            } else {
                do {
                    output += try value(of: try TwineParser.expression(source, harlowe: false)).text
                } catch {
                    warn("Passage \"\(passage)\": \(source) \(error).")
                    output += source
                }
            }
            i = j
            return nil
        }
        if c == "/", i + 1 < to, s[i + 1] == "*" || s[i + 1] == "%" {
            let close = TwineMarkup.find(s[i + 1] == "*" ? "*/" : "%/", s, i + 2, to, work: work)
            i = close.map { $0 + 2 } ?? to
            return nil
        }
        if c == "@", TwineMarkup.starts("@@", s, i) {
            // `@@color:red;text@@`: the style is left out, the text kept.
            i += 2
            if let semicolon = TwineMarkup.findScalar(";", s, i, min(to, i + 200)),
                let close = TwineMarkup.find("@@", s, i, to, work: work), semicolon < close,
                s[i..<semicolon].contains(":") || s[i] == "#" || s[i] == "."
            {
                i = semicolon + 1
            }
            return nil
        }
        if c == "{", TwineMarkup.starts("{{{", s, i), let close = TwineMarkup.find("}}}", s, i + 3, to, work: work) {
            output += TwineMarkup.string(s[(i + 3)..<close])
            i = close + 3
            return nil
        }
        try plainText(c, s, &i, to)
        return nil
    }

    /// Runs one macro whose opening tag spans `start..<end`; returns where the walk goes on, and what the macro shows
    /// inside itself (for `renderNested`, so that the walk recurses through small stack frames only).
    mutating func sugarMacro(_ name: String, args: String, start: Int, end: Int, in s: [Unicode.Scalar], _ to: Int) throws(TwineInterrupt)
        -> (Int, NestedMarkup?)
    {
        let label = "<<\(name)>>"
        let raw = TwineMarkup.string(s[start..<end])
        var body: (bodyEnd: Int, end: Int, clauses: [(name: String, args: String, start: Int, end: Int)])?
        if Self.sugarContainers.contains(name) {
            body = TwineMarkup.sugarBody(
                name, s, end, to, clauses: name == "if" ? ["elseif", "else"] : (name == "switch" ? ["case", "default"] : []), work: work)
            if body == nil, !["link", "button"].contains(name) {
                warn("Passage \"\(passage)\": \(label) is not closed with <</\(name)>>.")
                output += raw
                return (end, nil)
            }
        }
        let after = body?.end ?? end
        do {
            switch name {
            case "set":
                try run(try TwineParser.assignments(args, harlowe: false))
            case "run":
                try run(try TwineParser.assignments(args, harlowe: false))
            case "unset":
                for word in args.split(whereSeparator: { $0 == "," || $0 == " " }) {
                    if word.hasPrefix("$") { state.variables[String(word.dropFirst())] = nil }
                    if word.hasPrefix("_") { temporaries[String(word.dropFirst())] = nil }
                }
            case "print", "=", "-":
                output += try value(of: try TwineParser.expression(args, harlowe: false)).text
            case "if":
                guard let body else { return (after, nil) }
                var branches: [(condition: String?, from: Int, to: Int)] = []
                var open = (condition: Optional(args), from: end)
                for clause in body.clauses {
                    branches.append((open.condition, open.from, clause.start))
                    open = (clause.name == "else" ? nil : clause.args, clause.end)
                }
                branches.append((open.condition, open.from, body.bodyEnd))
                for branch in branches {
                    if let condition = branch.condition, !(try self.condition(condition)) { continue }
                    return (after, .markup(branch.from..<branch.to))
                }
            case "switch":
                guard let body else { return (after, nil) }
                let subject = try value(of: try TwineParser.expression(args, harlowe: false))
                var chosen: (Int, Int)?
                for (index, clause) in body.clauses.enumerated() {
                    let clauseEnd = index + 1 < body.clauses.count ? body.clauses[index + 1].start : body.bodyEnd
                    if clause.name == "default" {
                        if chosen == nil { chosen = (clause.end, clauseEnd) }
                        continue
                    }
                    var matched = false
                    for argument in TwineMarkup.sugarArguments(clause.args) {
                        if try sugarValue(argument) == subject { matched = true }
                    }
                    if matched {
                        chosen = (clause.end, clauseEnd)
                        break
                    }
                }
                if let chosen { return (after, .markup(chosen.0..<chosen.1)) }
            case "include", "display":
                guard let first = TwineMarkup.sugarArguments(args).first else { throw TwineEvalError(description: "needs a passage name") }
                return (after, .passage(try sugarTarget(first), macro: label))
            case "goto":
                guard let first = TwineMarkup.sugarArguments(args).first else { throw TwineEvalError(description: "needs a passage name") }
                throw TwineInterrupt.goto(try sugarTarget(first))
            case "link", "button":
                let arguments = TwineMarkup.sugarArguments(args)
                guard let first = arguments.first else { throw TwineEvalError(description: "needs the link's text") }
                let bodyText = body.map { TwineMarkup.string(s[end..<$0.bodyEnd]) } ?? ""
                var text = try sugarValue(first).text
                var target: String?
                var effects: [String] = []
                if case .link(let linkText, let linkTarget, let setter) = first {
                    text = linkText
                    target = linkTarget
                    if let setter { effects.append("<<set \(setter)>>") }
                }
                if arguments.count > 1 { target = try sugarTarget(arguments[1]) }
                if !bodyText.twineTrimmed.isEmpty { effects.append(bodyText) }
                if target == nil { target = try sugarGotoTarget(in: bodyText) }
                if let target {
                    addChoice(TwineChoice(text: text, target: target, effect: effects.isEmpty ? nil : effects.joined()), macro: label)
                } else {
                    warn("Passage \"\(passage)\": \(label) \"\(text)\" leads nowhere, so Trove runs what it does at once.")
                    return (after, .markup(end..<(body?.bodyEnd ?? end)))
                }
            case "linkreplace", "linkappend", "linkprepend":
                warn("Passage \"\(passage)\": \(label) is shown already opened.")
                if let body { return (after, .markup(end..<body.bodyEnd)) }
            case "back", "return":
                guard let previous = previousPassages.last else { return (after, nil) }
                let arguments = TwineMarkup.sugarArguments(args)
                let text = try arguments.first.map { try sugarValue($0).text } ?? (name == "back" ? "Back" : "Return")
                choices.append(TwineChoice(text: text, target: previous, kind: name == "back" ? .back : .go))
            case "actions", "choice":
                for argument in TwineMarkup.sugarArguments(args) {
                    let target = try sugarTarget(argument)
                    var text = target
                    var effect: String?
                    if case .link(let linkText, _, let setter) = argument {
                        text = linkText
                        effect = setter.map { "<<set \($0)>>" }
                    }
                    addChoice(TwineChoice(text: text, target: target, effect: effect), macro: label)
                    if name == "choice" { break }
                }
            case "nobr":
                if let body { return (after, .unbroken(end..<body.bodyEnd)) }
            case "silently":
                if let body { return (after, .silent(end..<body.bodyEnd)) }
            case "capture":
                if let body { return (after, .markup(end..<body.bodyEnd)) }
            case "script":
                unsupported(label)
                output += TwineMarkup.string(s[start..<after])
            default:
                if name.hasPrefix("/") || name.hasPrefix("end") {
                    // The closing tag of a macro already shown as text.
                    output += raw
                    return (end, nil)
                }
                unsupported(label)
                output += raw
                return (end, nil)
            }
        } catch let interrupt as TwineInterrupt {
            throw interrupt
        } catch {
            warn("Passage \"\(passage)\": \(label) \(error).")
        }
        return (after, nil)
    }

    mutating func sugarValue(_ argument: TwineMarkup.SugarArgument) throws -> TwineValue {
        switch argument {
        case .text(let text): return .string(text)
        case .link(let text, _, _): return .string(text)
        case .expression(let source): return try value(of: try TwineParser.expression(source, harlowe: false))
        }
    }

    /// A passage named by a macro argument: `"Name"`, `[[Name]]`, `[[text|Name]]`, `$variable`.
    mutating func sugarTarget(_ argument: TwineMarkup.SugarArgument) throws -> String {
        if case .link(_, let target, _) = argument { return target }
        return try sugarValue(argument).text
    }

    /// Where a `<<link>>` body leads: its first `<<goto>>`, if any.
    mutating func sugarGotoTarget(in body: String) throws -> String? {
        let s = Array(body.unicodeScalars)
        var i = 0
        while let open = TwineMarkup.find("<<goto", s, i, s.count, work: work) {
            if let macro = TwineMarkup.sugarMacro(s, open, s.count, work: work), macro.name == "goto",
                let first = TwineMarkup.sugarArguments(macro.args).first
            {
                return try sugarTarget(first)
            }
            i = open + 2
        }
        return nil
    }
}
