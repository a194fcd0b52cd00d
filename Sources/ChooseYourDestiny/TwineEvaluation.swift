import Foundation

/// Evaluating expressions and running statements, as a passage's macros ask.
extension TwineRun {
    // MARK: Values

    /// The value of `expression`. Each kind of expression is its own function: a debug build gives a function's every
    /// local its own stack space, and only these small frames repeat as deep as the expression nests.
    mutating func value(of expression: TwineExpression) throws(TwineEvalError) -> TwineValue {
        evaluationNesting += 1
        defer { evaluationNesting -= 1 }
        guard evaluationNesting <= TwineLimits.expressionDepth else {
            throw TwineEvalError(description: TwineSyntaxError.tooTall.description)
        }
        do { try work.charge() } catch { throw TwineEvalError(description: error.description) }
        switch expression {
        case .literal(let value): return value
        case .binary(let op, let left, let right): return try binaryValue(op, left, right)
        case .call(let name, let arguments): return try call(name, try values(arguments))
        case .unary(let op, let operand): return try unaryValue(op, operand)
        case .list(let items): return try checked(.list(try values(items)))
        case .member(let subject, let name): return try Self.member(name, of: try value(of: subject))
        case .method(let subject, let name, let arguments): return try method(subject, name, arguments)
        case .index(let subject, let index): return try Self.item(try value(of: index), of: try value(of: subject))
        default: return try variableValue(expression)
        }
    }

    func variableValue(_ expression: TwineExpression) throws(TwineEvalError) -> TwineValue {
        switch expression {
        case .variable(let name): return state.variables[name] ?? (harlowe ? .number(0) : .undefined)
        case .temporary(let name): return temporaries[name] ?? (harlowe ? .number(0) : .undefined)
        case .it:
            guard let it else { throw TwineEvalError(description: "'it' means the variable being set, and nothing is being set here") }
            return it
        default: throw TwineEvalError(description: "this is not a value")
        }
    }

    mutating func binaryValue(_ op: String, _ left: TwineExpression, _ right: TwineExpression) throws(TwineEvalError) -> TwineValue {
        if op == "and" { return .bool(try value(of: left).isTruthy ? try value(of: right).isTruthy : false) }
        if op == "or" { return .bool(try value(of: left).isTruthy ? true : try value(of: right).isTruthy) }
        let a = try value(of: left)
        let b = try value(of: right)
        return try checked(try Self.apply(op, a, b))
    }

    mutating func unaryValue(_ op: String, _ operand: TwineExpression) throws(TwineEvalError) -> TwineValue {
        if op == "def" {
            switch operand {
            case .variable(let name): return .bool(state.variables[name].map { $0 != .undefined } ?? false)
            case .temporary(let name): return .bool(temporaries[name].map { $0 != .undefined } ?? false)
            default: return .bool(try value(of: operand) != .undefined)
            }
        }
        return try Self.unary(op, try value(of: operand))
    }

    static func unary(_ op: String, _ v: TwineValue) throws(TwineEvalError) -> TwineValue {
        switch op {
        case "not": return .bool(!v.isTruthy)
        case "-", "+":
            guard case .number(let n) = v else { throw TwineEvalError(description: "\(op) needs a number, not \(v.typeName)") }
            return .number(op == "-" ? -n : n)
        default: throw TwineEvalError(description: "\(op) is not understood")
        }
    }

    static func member(_ name: String, of v: TwineValue) throws(TwineEvalError) -> TwineValue {
        switch (v, name) {
        case (.string(let s), "length"): return .number(Double(s.count))
        case (.list(let l), "length"): return .number(Double(l.count))
        case (.list(let l), "last"): return l.last ?? .undefined
        case (.list(let l), "first"): return l.first ?? .undefined
        case (.string(let s), "last"): return s.last.map { .string(String($0)) } ?? .undefined
        case (.string(let s), "first"): return s.first.map { .string(String($0)) } ?? .undefined
        default: throw TwineEvalError(description: "\(v.typeName) has no .\(name)")
        }
    }

    static func item(_ i: TwineValue, of v: TwineValue) throws(TwineEvalError) -> TwineValue {
        guard case .number(let n) = i, n >= 0, n < 1e9, n == n.rounded() else {
            throw TwineEvalError(description: "a position must be a whole number")
        }
        switch v {
        case .list(let l): return Int(n) < l.count ? l[Int(n)] : .undefined
        case .string(let s): return Int(n) < s.count ? .string(String(s[s.index(s.startIndex, offsetBy: Int(n))])) : .undefined
        default: throw TwineEvalError(description: "\(v.typeName) has no positions")
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
            case let (.list(x), .list(y)):
                let removed = Set(y)
                return .list(x.filter { !removed.contains($0) })
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

    /// A function or macro, its arguments already evaluated (this large frame is not repeated as they nest).
    mutating func call(_ name: String, _ args: [TwineValue]) throws(TwineEvalError) -> TwineValue {
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
        case "a", "array": return try checked(.list(args))
        case "str", "string", "text": return try checked(.string(args.map(\.text).joined()))
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
        case "lowercase": return try checked(.string((args.first?.text ?? "").lowercased()))
        case "uppercase": return try checked(.string((args.first?.text ?? "").uppercased()))
        default:
            throw TwineEvalError(description: harlowe ? "(\(name):) is not a macro Trove runs" : "\(name)() is not a function Trove runs")
        }
    }

    mutating func method(_ subject: TwineExpression, _ name: String, _ arguments: [TwineExpression]) throws(TwineEvalError) -> TwineValue {
        let receiver = try value(of: subject)
        return try method(subject, receiver, name, try values(arguments))
    }

    mutating func method(_ subject: TwineExpression, _ receiver: TwineValue, _ name: String, _ args: [TwineValue]) throws(TwineEvalError)
        -> TwineValue
    {
        switch (receiver, name) {
        case (_, "includes"), (_, "contains"):
            guard let item = args.first else { throw TwineEvalError(description: ".\(name)() needs a value") }
            return try Self.apply("contains", receiver, item)
        case (.list(let list), "indexOf"): return .number(Double(args.first.flatMap { list.firstIndex(of: $0) } ?? -1))
        case (.string(let s), "indexOf"):
            guard let needle = args.first?.text, let range = s.range(of: needle) else { return .number(-1) }
            return .number(Double(s.distance(from: s.startIndex, to: range.lowerBound)))
        case (.string(let s), "toUpperCase"): return try checked(.string(s.uppercased()))
        case (.string(let s), "toLowerCase"): return try checked(.string(s.lowercased()))
        case (.list(let list), "count"): return .number(Double(list.filter { $0 == args.first }.count))
        case (.list(let list), "join"): return try checked(.string(list.map(\.text).joined(separator: args.first?.text ?? ",")))
        case (.list(var list), "push"), (.list(var list), "pushUnique"):
            for arg in args where name == "push" || !list.contains(arg) { list.append(arg) }
            try store(try checked(.list(list)), into: subject)
            return .number(Double(list.count))
        case (.undefined, "push"):
            try store(try checked(.list(args)), into: subject)
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
                if op != "=" { new = try checked(try Self.apply(String(op.dropLast()), current, new)) }
                try store(new, into: target)
            }
        }
    }
}
