/// Scanning passage markup (as Unicode scalars): brackets, strings inside macro calls, macro names.
enum TwineMarkup {
    /// A run of scalars as a String, through UTF-8 (the generic ways cost most of an import's time).
    static func string(_ slice: ArraySlice<Unicode.Scalar>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(slice.count)
        for c in slice {
            let v = c.value
            if v < 0x80 {
                bytes.append(UInt8(v))
            } else if v < 0x800 {
                bytes.append(UInt8(0xC0 | (v >> 6)))
                bytes.append(UInt8(0x80 | (v & 0x3F)))
            } else if v < 0x10000 {
                bytes.append(UInt8(0xE0 | (v >> 12)))
                bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
                bytes.append(UInt8(0x80 | (v & 0x3F)))
            } else {
                bytes.append(UInt8(0xF0 | (v >> 18)))
                bytes.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
                bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
                bytes.append(UInt8(0x80 | (v & 0x3F)))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isWordStart(_ c: Unicode.Scalar) -> Bool { c.isAlphabetic || c == "_" }
    static func isWord(_ c: Unicode.Scalar) -> Bool { c.isAlphabetic || ("0"..."9").contains(c) || c == "_" }

    static func starts(_ pattern: String, _ s: [Unicode.Scalar], _ i: Int) -> Bool {
        var j = i
        for p in pattern.unicodeScalars {
            guard j < s.count, s[j] == p else { return false }
            j += 1
        }
        return true
    }

    static func find(_ pattern: String, _ s: [Unicode.Scalar], _ from: Int, _ to: Int, work: TwineWork? = nil) -> Int? {
        guard let first = pattern.unicodeScalars.first else { return nil }
        var i = from
        while i < to {
            if let work, !work.consume() { return nil }
            if s[i] == first, starts(pattern, s, i), i + pattern.unicodeScalars.count <= to { return i }
            i += 1
        }
        return nil
    }

    static func findScalar(_ c: Unicode.Scalar, _ s: [Unicode.Scalar], _ from: Int, _ to: Int) -> Int? {
        var i = from
        while i < to {
            if s[i] == c { return i }
            i += 1
        }
        return nil
    }

    /// Whether the `[[link]]` from `open` (its `[[`) to `end` (after its `]]`) stands in a sentence: a word or a
    /// comma just before it, or a word or punctuation just after it, on its line ("You can [[open the door->Red]]
    /// or [[wait->Wait]]."). Twine shows such a link among the words, so its words stay in the text (it is still a
    /// choice); a link after a sentence's end, markup or another link, with nothing after it ("Ready. [[Go]]",
    /// "[[Fight]] | [[Flee]]", "1. [[Run]]"), is a choice only, as Trove's choices are shown under the text.
    static func linkInProse(_ s: [Unicode.Scalar], _ open: Int, _ end: Int) -> Bool {
        func inSentence(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic || ("0"..."9").contains(c) }
        var before = open - 1
        while before >= 0, s[before] == " " || s[before] == "\t" { before -= 1 }
        if before >= 0, inSentence(s[before]) || ",;'\"‘’“”".unicodeScalars.contains(s[before]) { return true }
        var after = end
        while after < s.count, s[after] == " " || s[after] == "\t" { after += 1 }
        return after < s.count && (inSentence(s[after]) || ",;:.!?'\"’”".unicodeScalars.contains(s[after]))
    }

    /// `(name:` at `i`: the name as written and where the arguments start.
    static func macroName(_ s: [Unicode.Scalar], _ i: Int, _ to: Int) -> (String, Int)? {
        guard s[i] == "(" else { return nil }
        var j = i + 1
        guard j < to, s[j].isAlphabetic else { return nil }
        while j < to, isWord(s[j]) || s[j] == "-" { j += 1 }
        guard j < to, s[j] == ":" else { return nil }
        return (TwineMarkup.string(s[(i + 1)..<j]), j + 1)
    }

    /// The index after a string starting at `i` (quote at `i`), or nil when it does not close before `to`.
    static func skipString(_ s: [Unicode.Scalar], _ i: Int, _ to: Int) -> Int? {
        let quote = s[i]
        var j = i + 1
        while j < to {
            if s[j] == "\\" {
                j += 2
                continue
            }
            if s[j] == quote { return j + 1 }
            j += 1
        }
        return nil
    }

    /// Harlowe's `'s` after a value (`$list's length`) is not the start of a string.
    static func isPossessive(_ s: [Unicode.Scalar], _ j: Int, _ to: Int) -> Bool {
        s[j] == "'" && j > 0 && (s[j - 1] == ")" || isWord(s[j - 1])) && j + 1 < to && s[j + 1] == "s" && (j + 2 >= to || !isWord(s[j + 2]))
    }

    /// The `)` closing the `(` at `i`, across nested parentheses and strings.
    static func matchParen(_ s: [Unicode.Scalar], _ i: Int, _ to: Int, work: TwineWork? = nil) -> Int? {
        var depth = 0
        var j = i
        while j < to {
            if let work, !work.consume() { return nil }
            switch s[j] {
            case "'" where isPossessive(s, j, to):
                j += 2
                continue
            case "\"", "'", "`":
                guard let next = skipString(s, j, to) else { return nil }
                j = next
                continue
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return j }
            default: break
            }
            j += 1
        }
        return nil
    }

    /// The `]` closing the hook `[` at `i`; macro calls inside are skipped whole, so their strings may hold brackets.
    static func matchHook(_ s: [Unicode.Scalar], _ i: Int, _ to: Int, work: TwineWork? = nil) -> Int? {
        var depth = 0
        var j = i
        while j < to {
            if let work, !work.consume() { return nil }
            let c = s[j]
            if c == "(", macroName(s, j, to) != nil, let close = matchParen(s, j, to, work: work) {
                j = close + 1
                continue
            }
            if c == "[" { depth += 1 }
            if c == "]" {
                depth -= 1
                if depth == 0 { return j }
            }
            j += 1
        }
        return nil
    }

    static func matchBrace(_ s: [Unicode.Scalar], _ i: Int, _ to: Int, work: TwineWork? = nil) -> Int? {
        var depth = 0
        var j = i
        while j < to {
            if let work, !work.consume() { return nil }
            let c = s[j]
            if c == "(", macroName(s, j, to) != nil, let close = matchParen(s, j, to, work: work) {
                j = close + 1
                continue
            }
            if c == "{" { depth += 1 }
            if c == "}" {
                depth -= 1
                if depth == 0 { return j }
            }
            j += 1
        }
        return nil
    }

    /// A Harlowe nametag `|name>` (or `|name)`) directly before a hook: the hook's `[` and the name.
    static func nametag(_ s: [Unicode.Scalar], _ i: Int, _ to: Int) -> (Int, String)? {
        var j = i + 1
        while j < to, isWord(s[j]) || s[j] == "-" { j += 1 }
        guard j > i + 1, j + 1 < to, s[j] == ">" || s[j] == ")", s[j + 1] == "[" else { return nil }
        return (j + 1, TwineMarkup.string(s[(i + 1)..<j]))
    }

    // MARK: SugarCube

    /// A SugarCube macro `<<name args>>` at `i`: its name, arguments and the index after `>>`.
    static func sugarMacro(_ s: [Unicode.Scalar], _ i: Int, _ to: Int, work: TwineWork? = nil) -> (name: String, args: String, end: Int)? {
        guard starts("<<", s, i) else { return nil }
        var j = i + 2
        let nameStart = j
        if j < to, s[j] == "/" || s[j] == "=" || s[j] == "-" { j += 1 }
        while j < to, isWord(s[j]) || s[j] == "-" || s[j] == ":" { j += 1 }
        guard j > nameStart else { return nil }
        let name = TwineMarkup.string(s[nameStart..<j])
        let argsStart = j
        var k = j
        while k < to {
            if let work, !work.consume() { return nil }
            switch s[k] {
            case "\"", "'", "`":
                guard let next = skipString(s, k, to) else { return nil }
                k = next
                continue
            case "[" where k + 1 < to && s[k + 1] == "[":
                guard let close = find("]]", s, k + 2, to, work: work) else { return nil }
                k = close + 2
                continue
            case ">" where k + 1 < to && s[k + 1] == ">":
                return (name, TwineMarkup.string(s[argsStart..<k]).twineTrimmed, k + 2)
            default:
                k += 1
            }
        }
        return nil
    }

    /// The body of the container macro `name` whose opening tag ends at `from`: where it ends, where its closing tag
    /// ends, and the clauses inside it at its own depth (`<<elseif>>`, `<<else>>`, `<<case>>`…).
    static func sugarBody(
        _ name: String, _ s: [Unicode.Scalar], _ from: Int, _ to: Int, clauses: Set<String> = [], work: TwineWork? = nil
    ) -> (bodyEnd: Int, end: Int, clauses: [(name: String, args: String, start: Int, end: Int)])? {
        var depth = 1
        var i = from
        var found: [(name: String, args: String, start: Int, end: Int)] = []
        while i < to {
            if let work, !work.consume() { return nil }
            guard s[i] == "<", let macro = sugarMacro(s, i, to, work: work) else {
                i += 1
                continue
            }
            var macroName = macro.name
            if macroName == "else", macro.args.hasPrefix("if ") { macroName = "elseif" }
            if macroName == name {
                depth += 1
            } else if macroName == "/" + name || macroName == "end" + name {
                depth -= 1
                if depth == 0 { return (i, macro.end, found) }
            } else if depth == 1, clauses.contains(macroName) {
                found.append(
                    (macroName, macroName == "elseif" && macro.name == "else" ? String(macro.args.dropFirst(3)) : macro.args, i, macro.end))
            }
            i = macro.end
        }
        return nil
    }

    enum SugarArgument: Equatable {
        case text(String)
        case link(text: String, target: String, setter: String?)
        case expression(String)
    }

    /// SugarCube macro arguments: quoted strings, `[[links]]`, `` `expressions` ``, `$variables`, bare words.
    static func sugarArguments(_ args: String) -> [SugarArgument] {
        let s = Array(args.unicodeScalars)
        var list: [SugarArgument] = []
        var i = 0
        while i < s.count {
            let c = s[i]
            if c.isWhitespace {
                i += 1
            } else if c == "\"" || c == "'" || c == "`", let end = skipString(s, i, s.count) {
                let inner = TwineMarkup.string(s[(i + 1)..<(end - 1)])
                list.append(c == "`" ? .expression(inner) : .text(unescape(inner)))
                i = end
            } else if starts("[[", s, i), let close = find("]]", s, i + 2, s.count) {
                let link = TwineRun.link(TwineMarkup.string(s[(i + 2)..<close]))
                list.append(.link(text: link.text, target: link.target, setter: link.setter))
                i = close + 2
            } else {
                var j = i
                while j < s.count, !s[j].isWhitespace { j += 1 }
                let word = TwineMarkup.string(s[i..<j])
                list.append(
                    c == "$" || c == "_" || Double(word) != nil || ["true", "false", "null", "undefined"].contains(word)
                        ? .expression(word) : .text(word))
                i = j
            }
        }
        return list
    }

    static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var out = ""
        var escaped = false
        for c in text {
            if escaped {
                out.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}

extension StringProtocol {
    /// Without surrounding white space (Foundation's trimming took a third of a 500-passage import).
    var twineTrimmed: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}

extension Unicode.Scalar {
    /// `properties.isAlphabetic`, with ASCII answered without Unicode's tables: the lexers ask it of nearly every
    /// character of a passage, and the table lookup was 4% of showing one (docs/BENCHMARKS.md).
    var isAlphabetic: Bool {
        isASCII ? (0x61...0x7A).contains(value | 0x20) : properties.isAlphabetic
    }

    /// `properties.isWhitespace`, likewise.
    var isWhitespace: Bool {
        isASCII ? value == 0x20 || (0x09...0x0D).contains(value) : properties.isWhitespace
    }
}
