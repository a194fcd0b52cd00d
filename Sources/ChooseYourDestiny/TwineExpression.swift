import Foundation

/// The expression language shared by Harlowe 3 and SugarCube 2, as far as stories use it to keep score and
/// open paths: numbers, strings, booleans, lists, story (`$x`) and temporary (`_x`) variables, arithmetic,
/// comparisons in both spellings (`is`, `is not`, `contains`, `is in`, `eq`, `gte`, `===`, `<`…), `and`/`or`/`not`,
/// and the few functions a path depends on (`(history:)`, `visits`, `visited()`, `random`, `either`…).
/// Nothing is evaluated as JavaScript.
indirect enum TwineExpression: Sendable, Equatable {
    case literal(TwineValue)
    case variable(String)
    case temporary(String)
    /// Harlowe's `it`: the variable being set.
    case it
    case list([TwineExpression])
    case unary(String, TwineExpression)
    case binary(String, TwineExpression, TwineExpression)
    /// A Harlowe macro `(name: …)` or a SugarCube function `name(…)`; names folded by `TwineExpression.fold`.
    case call(String, [TwineExpression])
    case member(TwineExpression, String)
    case method(TwineExpression, String, [TwineExpression])
    case index(TwineExpression, TwineExpression)

    static let comparisons: Set<String> = ["===", "!==", "==", "!=", "<", ">", "<=", ">=", "contains", "notcontains", "in", "notin"]

    /// Harlowe reads `link-goto`, `linkGoto` and `link_goto` as one name.
    static func fold(_ name: some StringProtocol) -> String {
        String(name.lowercased().filter { $0 != "-" && $0 != "_" })
    }
}

/// `$x to 1`, `$x += 2`, `1 into $x`, or (SugarCube `<<run>>`/`<<set>>`) an expression run for its effect.
enum TwineStatement: Sendable, Equatable {
    case assign(TwineExpression, String, TwineExpression)
    case evaluate(TwineExpression)
}

struct TwineSyntaxError: Error, Equatable, CustomStringConvertible {
    let description: String
    /// The expression is well formed but nests deeper than `TwineLimits` allow: a story holding it is refused.
    var exceedsLimit = false

    static let tooDeep = TwineSyntaxError(
        description: "the expression nests more than \(TwineLimits.expressionNesting) levels deep", exceedsLimit: true)
    static let tooTall = TwineSyntaxError(
        description: "the expression nests more than \(TwineLimits.expressionDepth) levels deep (counting its operators)",
        exceedsLimit: true)
}

enum TwineToken: Equatable {
    case number(Double)
    case string(String)
    case variable(String)
    case temporary(String)
    case word(String)
    /// `(name:` opening a Harlowe macro call.
    case macro(String)
    case symbol(String)
    case end
}

enum TwineLexer {
    static let symbols = [
        "===", "!==", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "&&", "||", "++", "--",
        "(", ")", "[", "]", ",", ".", "+", "-", "*", "/", "%", "!", "<", ">", "=", ";", "?", ":",
    ]

    static func tokens(_ source: some StringProtocol) throws(TwineSyntaxError) -> [TwineToken] {
        let chars = Array(source.unicodeScalars)
        var tokens: [TwineToken] = []
        var i = 0
        func isWord(_ c: Unicode.Scalar) -> Bool { c.isAlphabetic || ("0"..."9").contains(c) || c == "_" }
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace {
                i += 1
                continue
            }
            if ("0"..."9").contains(c) || (c == "." && i + 1 < chars.count && ("0"..."9").contains(chars[i + 1])) {
                var j = i
                while j < chars.count, ("0"..."9").contains(chars[j]) || chars[j] == "." { j += 1 }
                guard let value = Double(TwineMarkup.string(chars[i..<j])) else {
                    throw TwineSyntaxError(description: "\(TwineMarkup.string(chars[i..<j])) is not a number")
                }
                tokens.append(.number(value))
                i = j
                // Harlowe's ordinals (`1st`, `2nd`) and units are not read: the letters stop the number.
                continue
            }
            // Harlowe's possessive: `$list's length`, `(history:)'s last`, `$list's 2nd`.
            if c == "'", i + 1 < chars.count, chars[i + 1] == "s", i + 2 == chars.count || !isWord(chars[i + 2]), let last = tokens.last,
                Self.endsValue(last)
            {
                tokens.append(.symbol("'s"))
                i += 2
                continue
            }
            if c == "\"" || c == "'" || c == "`" {
                var j = i + 1
                var text = String.UnicodeScalarView()
                while j < chars.count, chars[j] != c {
                    if chars[j] == "\\", j + 1 < chars.count {
                        j += 1
                        switch chars[j] {
                        case "n": text.append("\n")
                        case "t": text.append("\t")
                        default: text.append(chars[j])
                        }
                    } else {
                        text.append(chars[j])
                    }
                    j += 1
                }
                guard j < chars.count else { throw TwineSyntaxError(description: "a string is not closed with \(c)") }
                tokens.append(.string(String(text)))
                i = j + 1
                continue
            }
            if c == "$" || (c == "_" && i + 1 < chars.count && (chars[i + 1].isAlphabetic || chars[i + 1] == "_")) {
                var j = i + 1
                while j < chars.count, isWord(chars[j]) { j += 1 }
                let name = TwineMarkup.string(chars[(i + 1)..<j])
                guard !name.isEmpty else { throw TwineSyntaxError(description: "$ is not followed by a variable name") }
                tokens.append(c == "$" ? .variable(name) : .temporary(name))
                i = j
                continue
            }
            if c == "(" {
                // `(name:` is a macro call; `(` alone groups.
                var j = i + 1
                while j < chars.count, chars[j] == " " { j += 1 }
                let start = j
                while j < chars.count, isWord(chars[j]) || chars[j] == "-" { j += 1 }
                if j > start, j < chars.count, chars[j] == ":", chars[start].isAlphabetic {
                    tokens.append(.macro(TwineExpression.fold(TwineMarkup.string(chars[start..<j]))))
                    i = j + 1
                    continue
                }
            }
            if isWord(c) {
                var j = i
                while j < chars.count, isWord(chars[j]) { j += 1 }
                tokens.append(.word(TwineMarkup.string(chars[i..<j])))
                i = j
                continue
            }
            if let symbol = symbols.first(where: { matches($0, chars, at: i) }) {
                tokens.append(.symbol(symbol))
                i += symbol.unicodeScalars.count
                continue
            }
            throw TwineSyntaxError(description: "\(Character(c)) is not understood here")
        }
        tokens.append(.end)
        return tokens
    }

    static func endsValue(_ token: TwineToken) -> Bool {
        switch token {
        case .variable, .temporary, .string, .symbol(")"), .word("it"): true
        default: false
        }
    }

    static func matches(_ symbol: String, _ chars: [Unicode.Scalar], at i: Int) -> Bool {
        var j = i
        for s in symbol.unicodeScalars {
            guard j < chars.count, chars[j] == s else { return false }
            j += 1
        }
        return true
    }
}

/// A Pratt-style parser over `TwineLexer` tokens.
struct TwineParser {
    var tokens: [TwineToken]
    var position = 0
    /// How deep the parse functions are inside one another (parentheses, lists, calls, prefix operators).
    var nesting = 0
    /// The height of the tree the last parse function returned. An operator chain (`1+1+…`) is read in a loop, but
    /// its tree deepens a level a term, and evaluating (or freeing) the tree recurses that deep.
    var height = 0
    /// Harlowe reads `$a is 1 or 2` as `$a is 1 or $a is 2` (an "elided comparison").
    let harlowe: Bool

    init(_ source: some StringProtocol, harlowe: Bool) throws(TwineSyntaxError) {
        tokens = try TwineLexer.tokens(source)
        self.harlowe = harlowe
    }

    static func expression(_ source: some StringProtocol, harlowe: Bool) throws(TwineSyntaxError) -> TwineExpression {
        var parser = try TwineParser(source, harlowe: harlowe)
        let expression = try parser.parseExpression()
        try parser.expectEnd()
        return expression
    }

    /// Comma-separated expressions: a Harlowe macro's arguments.
    static func arguments(_ source: some StringProtocol, harlowe: Bool) throws(TwineSyntaxError) -> [TwineExpression] {
        var parser = try TwineParser(source, harlowe: harlowe)
        if parser.peek == .end { return [] }
        var list = [try parser.parseExpression()]
        while parser.take(.symbol(",")) {
            if parser.peek == .end { break }
            list.append(try parser.parseExpression())
        }
        try parser.expectEnd()
        return list
    }

    /// `(set:)` / `<<set>>`: assignments separated by commas (SugarCube also semicolons).
    static func assignments(_ source: some StringProtocol, harlowe: Bool) throws(TwineSyntaxError) -> [TwineStatement] {
        var parser = try TwineParser(source, harlowe: harlowe)
        var statements: [TwineStatement] = []
        repeat {
            if parser.peek == .end { break }
            let target = try parser.parseExpression()
            if case .symbol(let op) = parser.peek, ["=", "+=", "-=", "*=", "/=", "%="].contains(op) {
                parser.position += 1
                statements.append(.assign(target, op, try parser.parseExpression()))
            } else if parser.take(.word("to")) {
                statements.append(.assign(target, "=", try parser.parseExpression()))
            } else if case .symbol(let op) = parser.peek, op == "++" || op == "--" {
                parser.position += 1
                statements.append(.assign(target, op == "++" ? "+=" : "-=", .literal(.number(1))))
            } else if harlowe {
                throw TwineSyntaxError(description: "(set:) needs 'to', as in (set: $x to 1)")
            } else {
                statements.append(.evaluate(target))
            }
            try Self.checkTarget(statements.last!)
        } while parser.take(.symbol(",")) || parser.take(.symbol(";"))
        try parser.expectEnd()
        return statements
    }

    /// `(put: 1 into $x)`, `(move: $a into $b)`.
    static func puts(_ source: some StringProtocol) throws(TwineSyntaxError) -> [TwineStatement] {
        var parser = try TwineParser(source, harlowe: true)
        var statements: [TwineStatement] = []
        repeat {
            let value = try parser.parseExpression()
            guard parser.take(.word("into")) else { throw TwineSyntaxError(description: "(put:) needs 'into', as in (put: 1 into $x)") }
            statements.append(.assign(try parser.parseExpression(), "=", value))
            try Self.checkTarget(statements.last!)
        } while parser.take(.symbol(","))
        try parser.expectEnd()
        return statements
    }

    static func checkTarget(_ statement: TwineStatement) throws(TwineSyntaxError) {
        guard case .assign(let target, _, _) = statement else { return }
        switch target {
        case .variable, .temporary: return
        default: throw TwineSyntaxError(description: "only a $variable or a _variable can be set")
        }
    }

    var peek: TwineToken { tokens[position] }

    mutating func enter() throws(TwineSyntaxError) {
        nesting += 1
        guard nesting <= TwineLimits.expressionNesting else { throw .tooDeep }
    }

    /// A node over children of these heights: records its height, and refuses a tree deeper than the limit.
    mutating func node(_ expression: TwineExpression, over heights: Int...) throws(TwineSyntaxError) -> TwineExpression {
        height = (heights.max() ?? 0) + 1
        guard height <= TwineLimits.expressionDepth else { throw .tooTall }
        return expression
    }

    mutating func take(_ token: TwineToken) -> Bool {
        guard tokens[position] == token else { return false }
        position += 1
        return true
    }

    func expectEnd() throws(TwineSyntaxError) {
        guard peek == .end else { throw TwineSyntaxError(description: "\(Self.describe(peek)) is not expected here") }
    }

    static func describe(_ token: TwineToken) -> String {
        switch token {
        case .number(let n): "the number \(TwineValue.number(n).text)"
        case .string(let s): "the string \"\(s)\""
        case .variable(let v): "$\(v)"
        case .temporary(let v): "_\(v)"
        case .word(let w): "'\(w)'"
        case .macro(let m): "(\(m):"
        case .symbol(let s): "'\(s)'"
        case .end: "the end"
        }
    }

    mutating func parseExpression() throws(TwineSyntaxError) -> TwineExpression {
        try enter()
        defer { nesting -= 1 }
        var left = try parseAnd()
        var leftHeight = height
        var lastComparison = Self.comparison(in: left)
        while take(.word("or")) || take(.symbol("||")) {
            var right = try parseAnd()
            var rightHeight = height
            if let elided = elide(right, lastComparison) {
                right = elided
                rightHeight = leftHeight  // the elided subject is part of the tree on the left
            }
            lastComparison = Self.comparison(in: right) ?? lastComparison
            left = try node(.binary("or", left, right), over: leftHeight, rightHeight)
            leftHeight = height
        }
        height = leftHeight
        return left
    }

    mutating func parseAnd() throws(TwineSyntaxError) -> TwineExpression {
        var left = try parseNot()
        var leftHeight = height
        var lastComparison = Self.comparison(in: left)
        while take(.word("and")) || take(.symbol("&&")) {
            var right = try parseNot()
            var rightHeight = height
            if let elided = elide(right, lastComparison) {
                right = elided
                rightHeight = leftHeight
            }
            lastComparison = Self.comparison(in: right) ?? lastComparison
            left = try node(.binary("and", left, right), over: leftHeight, rightHeight)
            leftHeight = height
        }
        height = leftHeight
        return left
    }

    static func comparison(in expression: TwineExpression) -> TwineExpression? {
        if case .binary(let op, _, _) = expression, comparisons.contains(op) { return expression }
        return nil
    }

    func elide(_ right: TwineExpression, _ comparison: TwineExpression?) -> TwineExpression? {
        guard harlowe, case .literal(let value) = right, case .binary(let op, let subject, _)? = comparison else { return nil }
        if case .bool = value { return nil }
        return .binary(op, subject, .literal(value))
    }

    static let comparisons = TwineExpression.comparisons

    mutating func parseNot() throws(TwineSyntaxError) -> TwineExpression {
        guard take(.word("not")) else { return try parseComparison() }
        try enter()
        defer { nesting -= 1 }
        let operand = try parseNot()
        return try node(.unary("not", operand), over: height)
    }

    mutating func parseComparison() throws(TwineSyntaxError) -> TwineExpression {
        var left = try parseAdditive()
        while let op = takeComparison() {
            let leftHeight = height
            let right = try parseAdditive()
            left = try node(.binary(op, left, right), over: leftHeight, height)
        }
        return left
    }

    mutating func takeComparison() -> String? {
        switch peek {
        case .word("is"):
            position += 1
            if take(.word("not")) { return take(.word("in")) ? "notin" : "!==" }
            return take(.word("in")) ? "in" : "==="
        case .word("isnot"):
            position += 1
            return "!=="
        case .word("contains"):
            position += 1
            return "contains"
        case .word("does")
        where position + 2 < tokens.count && tokens[position + 1] == .word("not") && tokens[position + 2] == .word("contain"):
            position += 3
            return "notcontains"
        case .word("eq"):
            position += 1
            return "=="
        case .word("neq"):
            position += 1
            return "!="
        case .word("gt"):
            position += 1
            return ">"
        case .word("gte"):
            position += 1
            return ">="
        case .word("lt"):
            position += 1
            return "<"
        case .word("lte"):
            position += 1
            return "<="
        case .symbol(let s) where ["===", "!==", "==", "!=", "<", ">", "<=", ">="].contains(s):
            position += 1
            return s
        default: return nil
        }
    }

    mutating func parseAdditive() throws(TwineSyntaxError) -> TwineExpression {
        var left = try parseMultiplicative()
        while case .symbol(let op) = peek, op == "+" || op == "-" {
            position += 1
            let leftHeight = height
            let right = try parseMultiplicative()
            left = try node(.binary(op, left, right), over: leftHeight, height)
        }
        return left
    }

    mutating func parseMultiplicative() throws(TwineSyntaxError) -> TwineExpression {
        var left = try parseUnary()
        while case .symbol(let op) = peek, op == "*" || op == "/" || op == "%" {
            position += 1
            let leftHeight = height
            let right = try parseUnary()
            left = try node(.binary(op, left, right), over: leftHeight, height)
        }
        return left
    }

    mutating func parseUnary() throws(TwineSyntaxError) -> TwineExpression {
        let op: String
        switch peek {
        case .symbol("-"): op = "-"
        case .symbol("+"): op = "+"
        case .symbol("!"): op = "not"
        case .word("def"): op = "def"
        case .word("ndef"): op = "ndef"
        default: return try parsePostfix()
        }
        position += 1
        try enter()
        defer { nesting -= 1 }
        let operand = try parseUnary()
        if op == "ndef" { return try node(.unary("not", try node(.unary("def", operand), over: height)), over: height) }
        return try node(.unary(op, operand), over: height)
    }

    mutating func parsePostfix() throws(TwineSyntaxError) -> TwineExpression {
        var value = try parsePrimary()
        while true {
            let valueHeight = height
            if take(.symbol(".")) {
                guard case .word(let name) = peek else { throw TwineSyntaxError(description: "a name must follow '.'") }
                position += 1
                if take(.symbol("(")) {
                    let arguments = try parseList(until: ")")
                    value = try node(.method(value, name, arguments), over: valueHeight, height)
                } else {
                    value = try node(.member(value, name), over: valueHeight)
                }
            } else if take(.symbol("'s")) {
                switch peek {
                case .word(let name):
                    position += 1
                    value = try node(.member(value, name), over: valueHeight)
                case .number(let n):
                    // `1st`, `2nd`, `3rd`, `4th`: the number, then its letters.
                    position += 1
                    if case .word(let suffix) = peek, ["st", "nd", "rd", "th"].contains(suffix) { position += 1 }
                    value = try node(.index(value, .literal(.number(n - 1))), over: valueHeight, 1)
                default:
                    throw TwineSyntaxError(description: "'s must be followed by a name such as length or last")
                }
            } else if case .symbol("[") = peek, !harlowe {
                position += 1
                let index = try parseExpression()
                guard take(.symbol("]")) else { throw TwineSyntaxError(description: "'[' is not closed with ']'") }
                value = try node(.index(value, index), over: valueHeight, height)
            } else {
                height = valueHeight
                return value
            }
        }
    }

    /// The items up to `close`; `height` is then the tallest item's.
    mutating func parseList(until close: String) throws(TwineSyntaxError) -> [TwineExpression] {
        var list: [TwineExpression] = []
        var tallest = 0
        defer { height = tallest }
        if take(.symbol(close)) { return list }
        repeat {
            if case .symbol(close) = peek { break }
            list.append(try parseExpression())
            tallest = max(tallest, height)
        } while take(.symbol(","))
        guard take(.symbol(close)) else { throw TwineSyntaxError(description: "a list is not closed with '\(close)'") }
        return list
    }

    mutating func parsePrimary() throws(TwineSyntaxError) -> TwineExpression {
        let token = peek
        position += 1
        height = 1
        switch token {
        case .number(let n): return .literal(.number(n))
        case .string(let s): return .literal(.string(s))
        case .variable(let v): return .variable(v)
        case .temporary(let v): return .temporary(v)
        case .macro(let name):
            let arguments = try parseList(until: ")")
            return try node(.call(name, arguments), over: height)
        case .symbol("("):
            let inner = try parseExpression()
            guard take(.symbol(")")) else { throw TwineSyntaxError(description: "'(' is not closed with ')'") }
            return inner
        case .symbol("["):
            let items = try parseList(until: "]")
            return try node(.list(items), over: height)
        case .word(let word):
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null", "undefined": return .literal(.undefined)
            case "it": return .it
            case "visits", "visit": return .call("visits", [])
            default: break
            }
            if take(.symbol("(")) {
                let arguments = try parseList(until: ")")
                return try node(.call(TwineExpression.fold(word), arguments), over: height)
            }
            throw TwineSyntaxError(description: "'\(word)' is not a value Trove knows")
        default:
            throw TwineSyntaxError(description: "\(Self.describe(token)) is not expected here")
        }
    }
}
