/// Reading a story's passages against `TwineLimits` without running them: at upload (`checkLimits`, which refuses the
/// story) and when an interpreter is made (`limitProblems`, whose passages then stop the story where they are
/// reached). Linear in the passage: brackets and containers are counted in one pass, and each outermost macro's
/// arguments are read once (a macro nested in them is read with them).
extension TwineStory {
    /// Refuses the story when a passage is over `TwineLimits`, naming the passage.
    public func checkLimits(work: TwineWork = TwineWork()) throws(FormatError) {
        for passage in passages {
            if let problem = limitProblem(passage, work: work) { throw FormatError(description: problem) }
        }
        if let exhausted = work.exhausted { throw FormatError(description: "The story cannot be read: \(exhausted.description).") }
    }

    /// The passages over `TwineLimits`, by name, each with what is wrong.
    func limitProblems() -> [String: String] {
        var problems: [String: String] = [:]
        for passage in passages {
            if let problem = limitProblem(passage, work: TwineWork(steps: Int.max)) { problems[passage.name] = problem }
        }
        return problems
    }

    func limitProblem(_ passage: Passage, work: TwineWork) -> String? {
        let s = Array(passage.text.unicodeScalars)
        guard work.consume(s.count) else { return nil }
        if Self.markupNesting(s, format: format) > TwineLimits.nesting {
            return "Passage \"\(passage.name)\" \(TwineLimits.nestingMessage) (brackets, hooks and macros inside one another)."
        }
        let tooDeep: TwineSyntaxError?
        switch format {
        case .harlowe: tooDeep = Self.harloweExpressionTooDeep(s, work: work)
        case .sugarcube: tooDeep = Self.sugarCubeExpressionTooDeep(s, work: work)
        case .other: tooDeep = nil
        }
        return tooDeep.map { "Passage \"\(passage.name)\": \($0.description)." }
    }

    /// The deepest nesting of `(`, `[`, `{` and SugarCube container macros, counted together (a closer without an
    /// opener is ignored; an opener never closed stays counted).
    static func markupNesting(_ s: [Unicode.Scalar], format: Format) -> Int {
        var depth = 0
        var deepest = 0
        var i = 0
        while i < s.count {
            switch s[i] {
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth = max(0, depth - 1)
            case "<" where format == .sugarcube && i + 1 < s.count && s[i + 1] == "<":
                var j = i + 2
                let closing = j < s.count && s[j] == "/"
                if closing { j += 1 }
                let nameStart = j
                while j < s.count, TwineMarkup.isWord(s[j]) || s[j] == "-" { j += 1 }
                var name = TwineMarkup.string(s[nameStart..<j])
                if !closing, name.hasPrefix("end"), TwineRun.sugarContainers.contains(String(name.dropFirst(3))) {
                    name = String(name.dropFirst(3))
                    depth = max(0, depth - 1)
                } else if TwineRun.sugarContainers.contains(name), !["link", "button"].contains(name) {
                    depth = closing ? max(0, depth - 1) : depth + 1
                }
                i = j
                deepest = max(deepest, depth)
                continue
            default: break
            }
            deepest = max(deepest, depth)
            i += 1
        }
        return deepest
    }

    static func harloweExpressionTooDeep(_ s: [Unicode.Scalar], work: TwineWork) -> TwineSyntaxError? {
        var i = 0
        while i < s.count {
            guard s[i] == "(", let (raw, argsStart) = TwineMarkup.macroName(s, i, s.count),
                let close = TwineMarkup.matchParen(s, i, s.count, work: work)
            else {
                i += 1
                continue
            }
            let args = TwineMarkup.string(s[argsStart..<close])
            do {
                switch TwineExpression.fold(raw) {
                case "set": _ = try TwineParser.assignments(args, harlowe: true)
                case "put", "move": _ = try TwineParser.puts(args)
                default: _ = try TwineParser.arguments(args, harlowe: true)
                }
            } catch {
                if error.exceedsLimit { return error }
            }
            i = close + 1
        }
        return nil
    }

    static func sugarCubeExpressionTooDeep(_ s: [Unicode.Scalar], work: TwineWork) -> TwineSyntaxError? {
        var i = 0
        while i < s.count {
            guard s[i] == "<", let macro = TwineMarkup.sugarMacro(s, i, s.count, work: work) else {
                i += 1
                continue
            }
            var sources: [(String, assignments: Bool)] = []
            switch macro.name {
            case "set", "run": sources.append((macro.args, true))
            case "if", "elseif", "print", "=", "-", "switch": sources.append((macro.args, false))
            default:
                for argument in TwineMarkup.sugarArguments(macro.args) {
                    switch argument {
                    case .expression(let source): sources.append((source, false))
                    case .link(_, _, let setter?): sources.append((setter, true))
                    default: break
                    }
                }
            }
            for (source, assignments) in sources {
                do {
                    if assignments {
                        _ = try TwineParser.assignments(source, harlowe: false)
                    } else {
                        _ = try TwineParser.expression(source, harlowe: false)
                    }
                } catch {
                    if error.exceedsLimit { return error }
                }
            }
            i = macro.end
        }
        return nil
    }
}
