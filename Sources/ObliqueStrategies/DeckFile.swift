/// Reads the deck from the `oblique` package's `strategies.ini`: one `[strategies]` section whose keys are
/// section names ("Edition 1=", "Extra=") and whose values are the cards, one per indented continuation line.
public enum DeckFile {
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case missingStrategiesSection
        case noSections
        case emptySection(String)
        case unexpectedLine(number: Int, text: String)

        public var description: String {
            switch self {
            case .missingStrategiesSection: "the file has no [strategies] section: is it the oblique package's strategies.ini?"
            case .noSections: "the [strategies] section holds no editions"
            case .emptySection(let name): "the section '\(name)' holds no cards"
            case .unexpectedLine(let number, let text):
                "line \(number) is neither a section name ('Edition 1=') nor an indented card: '\(text.prefix(60))'"
            }
        }
    }

    public static func parse(_ text: String) throws(ParseError) -> [DeckSection] {
        var sections: [DeckSection] = []
        var inStrategies = false
        var sawStrategies = false
        var currentName: String?
        var currentCards: [String] = []

        func finishSection() throws(ParseError) {
            guard let name = currentName else { return }
            guard !currentCards.isEmpty else { throw .emptySection(name) }
            sections.append(DeckSection(name: name, cards: currentCards))
            currentName = nil
            currentCards = []
        }

        // "\r\n" is a single Character in Swift, and isNewline covers it.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingSpaces()
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
                try finishSection()
                inStrategies = trimmed == "[strategies]"
                sawStrategies = sawStrategies || inStrategies
                continue
            }
            guard inStrategies else { continue }
            if line.first == " " || line.first == "\t" {
                guard currentName != nil else { throw .unexpectedLine(number: index + 1, text: String(line)) }
                currentCards.append(String(trimmed))
            } else if let equals = line.firstIndex(of: "=") {
                try finishSection()
                currentName = String(line[..<equals].trimmingSpaces())
                let inlineValue = line[line.index(after: equals)...].trimmingSpaces()
                if !inlineValue.isEmpty { currentCards.append(String(inlineValue)) }
            } else {
                throw .unexpectedLine(number: index + 1, text: String(line))
            }
        }
        try finishSection()
        guard sawStrategies else { throw .missingStrategiesSection }
        guard !sections.isEmpty else { throw .noSections }
        return sections
    }
}

extension StringProtocol {
    func trimmingSpaces() -> SubSequence {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
