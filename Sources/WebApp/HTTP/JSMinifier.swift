/// A script as phones get it: its comments, each line's indentation and its empty lines left out, outside strings,
/// template literals and regular expressions. The files keep their comments for the people who read them; a phone
/// parses about a fifth less of every page's JavaScript. What is kept is kept byte for byte, so each line and the
/// line breaks between statements stay as written.
///
/// A script the scan cannot follow to its end (a string, template, expression or comment left open) is served as it
/// is. Whether a `/` starts a regular expression is told from what comes before it, as JSMin does: after an operator,
/// an opening bracket, a comma or semicolon, or a keyword such as `return`; a division otherwise.
enum JSMinifier {
    static func minified(_ js: [UInt8]) -> [UInt8] {
        var scan = Scan(js)
        return scan.run() ? scan.out : js
    }

    private struct Scan {
        let js: [UInt8]
        var out: [UInt8] = []
        var index = 0
        var atLineStart = true
        /// The last byte of code written (not a space): whether a `/` after it starts a regular expression.
        var last: UInt8 = UInt8(ascii: "\n")
        /// The identifier or keyword that ended at `last`, if one did.
        var lastWord: [UInt8] = []
        /// For each template literal open around the code being read, the braces open in its `${…}`.
        var templates: [Int] = []

        init(_ js: [UInt8]) {
            self.js = js
            out.reserveCapacity(js.count)
        }

        func at(_ offset: Int) -> UInt8? { index + offset < js.count ? js[index + offset] : nil }

        mutating func copy(_ count: Int = 1) {
            out.append(contentsOf: js[index..<min(index + count, js.count)])
            index += count
        }

        /// Reads the whole script; false where it cannot be followed (then the script is served unchanged).
        mutating func run() -> Bool {
            while index < js.count {
                let byte = js[index]
                if atLineStart {
                    if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                        index += 1
                        continue
                    }
                    atLineStart = false
                    if byte == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") {
                        guard skipBlockComment() else { return false }
                        atLineStart = true
                        continue
                    }
                }
                switch byte {
                case UInt8(ascii: "/") where at(1) == UInt8(ascii: "/"):
                    while index < js.count, js[index] != UInt8(ascii: "\n") { index += 1 }
                case UInt8(ascii: "/") where at(1) == UInt8(ascii: "*"):
                    let start = index
                    guard skipBlockComment() else { return false }
                    out.append(contentsOf: js[start..<index])
                case UInt8(ascii: "/") where startsRegularExpression:
                    guard copyRegularExpression() else { return false }
                    noteOperand()
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    guard copyString(quote: byte) else { return false }
                    noteOperand()
                case UInt8(ascii: "`"):
                    copy()
                    guard copyTemplateText() else { return false }
                case UInt8(ascii: "{"):
                    if !templates.isEmpty { templates[templates.count - 1] += 1 }
                    copy()
                    note(byte)
                case UInt8(ascii: "}") where templates.last == 0:
                    templates.removeLast()
                    copy()
                    guard copyTemplateText() else { return false }
                case UInt8(ascii: "}"):
                    if !templates.isEmpty { templates[templates.count - 1] -= 1 }
                    copy()
                    note(byte)
                case UInt8(ascii: "\n"):
                    // A line that held only a comment ends here too: its line break would leave an empty line.
                    if out.isEmpty || out.last == UInt8(ascii: "\n") { index += 1 } else { copy() }
                    atLineStart = true
                    note(byte)
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                    copy()
                default:
                    copy()
                    note(byte)
                }
            }
            return templates.isEmpty
        }

        /// Records `byte` as the last of the code, and the word it ends or continues.
        mutating func note(_ byte: UInt8) {
            if Self.isWordByte(byte) {
                if !Self.isWordByte(last) { lastWord.removeAll(keepingCapacity: true) }
                lastWord.append(byte)
            } else {
                lastWord.removeAll(keepingCapacity: true)
            }
            last = byte
        }

        /// After a string, template or regular expression: a value, so a `/` next divides.
        mutating func noteOperand() {
            lastWord.removeAll(keepingCapacity: true)
            last = UInt8(ascii: ")")
        }

        static func isWordByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }

        static let beforeExpression = Set("(,=:[!&|?{};+-*%<>~^\n".utf8)
        static let keywordsBeforeExpression: Set<[UInt8]> = Set(
            ["return", "typeof", "case", "do", "else", "in", "of", "void", "yield", "await", "delete", "instanceof", "new", "throw"]
                .map { Array($0.utf8) })

        var startsRegularExpression: Bool {
            if Self.isWordByte(last) { return Self.keywordsBeforeExpression.contains(lastWord) }
            return Self.beforeExpression.contains(last)
        }

        /// Past `/* … */` (at its `/`); false if it is not closed.
        mutating func skipBlockComment() -> Bool {
            var end = index + 2
            while end + 1 < js.count, !(js[end] == UInt8(ascii: "*") && js[end + 1] == UInt8(ascii: "/")) { end += 1 }
            guard end + 1 < js.count else { return false }
            index = end + 2
            return true
        }

        /// Copies a quoted string (at its quote); false if a line ends before it does.
        mutating func copyString(quote: UInt8) -> Bool {
            copy()
            while index < js.count {
                let byte = js[index]
                if byte == UInt8(ascii: "\\") {
                    copy(2)
                } else if byte == UInt8(ascii: "\n") {
                    return false
                } else {
                    copy()
                    if byte == quote { return true }
                }
            }
            return false
        }

        /// Copies a regular expression literal (at its `/`) up to its closing `/`; its flags follow as a word.
        mutating func copyRegularExpression() -> Bool {
            copy()
            var inClass = false
            while index < js.count {
                let byte = js[index]
                if byte == UInt8(ascii: "\\") {
                    copy(2)
                    continue
                }
                if byte == UInt8(ascii: "\n") { return false }
                copy()
                if byte == UInt8(ascii: "[") {
                    inClass = true
                } else if byte == UInt8(ascii: "]") {
                    inClass = false
                } else if byte == UInt8(ascii: "/"), !inClass {
                    return true
                }
            }
            return false
        }

        /// Copies a template literal's text, after its opening backtick or a `}` closing one of its expressions, up to
        /// its closing backtick or its next `${`; false if the script ends first.
        mutating func copyTemplateText() -> Bool {
            while index < js.count {
                let byte = js[index]
                if byte == UInt8(ascii: "\\") {
                    copy(2)
                } else if byte == UInt8(ascii: "`") {
                    copy()
                    noteOperand()
                    return true
                } else if byte == UInt8(ascii: "$"), at(1) == UInt8(ascii: "{") {
                    copy(2)
                    templates.append(0)
                    note(UInt8(ascii: "{"))
                    return true
                } else {
                    copy()
                }
            }
            return false
        }
    }
}
