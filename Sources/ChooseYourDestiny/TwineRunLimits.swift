import Foundation

/// Markup a macro shows inside itself, walked by `TwineRun.renderNested`.
enum NestedMarkup {
    case markup(Range<Int>)
    /// Harlowe's `{…}` and `(collapse:)`: white space runs become one space.
    case collapsed(Range<Int>)
    /// SugarCube's `<<nobr>>`: line breaks become spaces.
    case unbroken(Range<Int>)
    /// SugarCube's `<<silently>>`: run, not shown.
    case silent(Range<Int>)
    /// A macro shown as text, its hook walked inside `[` `]`.
    case bracketed(Range<Int>)
    /// `(display:)`, `<<include>>`.
    case passage(String, macro: String)
}

/// `TwineLimits` while a passage is played: nesting, the size of the values a story builds, and the request's work.
extension TwineRun {

    /// Entering a hook, a macro's body or an included passage.
    mutating func enterMarkup() throws(TwineInterrupt) {
        markupNesting += 1
        guard markupNesting <= TwineLimits.nesting else {
            throw .stop(
                "The story stopped here: passage \"\(passage)\" \(TwineLimits.nestingMessage) (hooks, macros and included passages).")
        }
    }

    /// What a macro shows inside itself. The walkers and the macros recurse only through here and the walkers: a debug
    /// build's large frames for the macros are not repeated at each level.
    mutating func renderNested(_ nested: NestedMarkup, _ s: [Unicode.Scalar]) throws(TwineInterrupt) {
        switch nested {
        case .markup(let range): try renderFormat(s, range)
        case .collapsed(let range):
            let saved = output
            output = ""
            try renderFormat(s, range)
            output = saved + output.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        case .unbroken(let range):
            let saved = output
            output = ""
            try renderFormat(s, range)
            output = saved + String(String.UnicodeScalarView(output.unicodeScalars.map { $0 == "\n" ? " " : $0 }))
        case .silent(let range):
            let saved = output
            try renderFormat(s, range)
            output = saved
        case .bracketed(let range):
            output += "["
            try renderFormat(s, range)
            output += "]"
        case .passage(let name, let macro): try include(name, macro: macro)
        }
    }

    mutating func renderFormat(_ s: [Unicode.Scalar], _ range: Range<Int>) throws(TwineInterrupt) {
        if story.format == .sugarcube {
            try renderSugarCube(s, range.lowerBound, range.upperBound)
        } else {
            try renderHarlowe(s, range.lowerBound, range.upperBound)
        }
    }

    /// Charges the request's work; once it is spent, the passage stops.
    func charge(_ steps: Int) throws(TwineInterrupt) {
        do { try work.charge(steps) } catch { throw .stop("The story stopped here: \(error.description)") }
    }

    /// A passage the story was refused for when it was read (`TwineLimits.problems`) stops the story rather than run.
    func refuseIfTooLarge(_ name: String) throws(TwineInterrupt) {
        if let problem = problems[name] { throw .stop("The story stopped here: \(problem)") }
    }

    /// `value` when it is within the caps on what a story may build: a string of at most `TwineLimits.stringLength`
    /// bytes (UTF-8), lists of at most `TwineLimits.collectionSize` items in all (nested lists counted) nested at most
    /// `TwineLimits.expressionDepth` deep. Charged by its size, so building large values uses up the request's work.
    func checked(_ value: TwineValue) throws(TwineEvalError) -> TwineValue {
        var items = 0
        var bytes = 0
        // Lists still to count, with their depth: a list nested in itself many times must not recurse as deep.
        var pending: [(list: [TwineValue], depth: Int)] = []
        func count(_ value: TwineValue, depth: Int) throws(TwineEvalError) {
            switch value {
            case .string(let text):
                bytes += text.utf8.count
                guard text.utf8.count <= TwineLimits.stringLength else {
                    throw TwineEvalError(description: "the text would be longer than \(TwineLimits.stringLength) bytes")
                }
            case .list(let list):
                items += list.count
                guard items <= TwineLimits.collectionSize else {
                    throw TwineEvalError(description: "the list would hold more than \(TwineLimits.collectionSize) items")
                }
                guard depth <= TwineLimits.expressionDepth else {
                    throw TwineEvalError(
                        description: "lists inside one another would nest more than \(TwineLimits.expressionDepth) levels deep")
                }
                pending.append((list, depth))
            default: break
            }
        }
        try count(value, depth: 1)
        while let (list, depth) = pending.popLast() {
            for item in list {
                if case .string = item { continue }  // a list's strings are the list's own; only a new one is built
                try count(item, depth: depth + 1)
            }
        }
        do { try work.charge(1 + items + bytes / 4) } catch { throw TwineEvalError(description: error.description) }
        return value
    }
}
