import Edits
import Foundation

/// A named list of words to make magnets from: a built-in set or one of a profile's own.
public struct WordSet: Codable, Sendable, Equatable {
    public let id: String
    public let name: String
    public let builtIn: Bool
    public let words: [String]
    /// The words, to check a board's magnets against: made once per set, not once per save.
    let wordLookup: Set<String>

    enum CodingKeys: String, CodingKey {
        case id, name
        case builtIn = "built_in"
        case words
    }

    public init(id: String, name: String, builtIn: Bool, words: [String]) {
        self.id = id
        self.name = name
        self.builtIn = builtIn
        self.words = words
        wordLookup = Set(words)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            builtIn: try container.decode(Bool.self, forKey: .builtIn), words: try container.decode([String].self, forKey: .words))
    }
}

extension WordSet {
    /// A set edited on a device that opened it as `base`, over the set as stored now (`current`), so that two devices
    /// changing one set keep both changes: a name left as it was keeps a rename made elsewhere; the words are the
    /// current ones less those this edit removed, then those it added (a word counted once, ignoring case).
    public static func edited(
        name: String, words: [String], base: (name: String, words: [String]), current: WordSet
    ) -> (name: String, words: [String]) {
        let opened = Set(base.words)
        let kept = Set(words)
        var result = current.words.filter { !opened.contains($0) || kept.contains($0) }
        var seen = Set(result.map { $0.lowercased() })
        for word in words where !opened.contains(word) && seen.insert(word.lowercased()).inserted { result.append(word) }
        return (Edits.edited(name, base: base.name, current: current.name), result)
    }
}

/// Rules for the text people give word sets and magnets.
public enum PoetryText {
    public static let wordLength = 1...40
    public static let nameLength = 1...60
    public static let maximumWordsPerSet = 300
    /// A poem's title when it was given none.
    public static let untitled = "Untitled poem"

    /// Without whitespace or newlines at either end. Foundation's trim bridges every string to do it (5% of a poem
    /// save, for its title), so a text that starts and ends with a visible ASCII character is kept as it is.
    public static func trimmed(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, (0x21..<0x7F).contains(first), (0x21..<0x7F).contains(last) {
            return text
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A magnet's word, trimmed; 1 to 40 characters.
    public static func word(_ text: String) throws(PoetryError) -> String {
        let trimmed = trimmed(text)
        guard wordLength.contains(trimmed.count) else {
            throw .invalid("A word has 1 to 40 characters: '\(trimmed.prefix(50))' has \(trimmed.count).")
        }
        return trimmed
    }

    /// A word set's name and words, validated: trimmed, 1–300 words; a word given again (ignoring case) is dropped,
    /// as a person pasting a list expects, rather than refused.
    public static func wordSet(name: String, words: [String]) throws(PoetryError) -> (name: String, words: [String]) {
        let trimmedName = trimmed(name)
        guard nameLength.contains(trimmedName.count) else { throw .invalid("A word set's name has 1 to 60 characters.") }
        guard !words.isEmpty else { throw .invalid("A word set needs at least one word.") }
        guard words.count <= maximumWordsPerSet else { throw .invalid("A word set holds at most 300 words.") }
        var seen: Set<String> = []
        var result: [String] = []
        for raw in words {
            let word = try word(raw)
            if seen.insert(word.lowercased()).inserted { result.append(word) }
        }
        return (trimmedName, result)
    }
}

public enum PoetryError: Error, Equatable, Sendable {
    case invalid(String)
    case wordSetNotFound
    case wordSetNameTaken(String)
    case poemNotFound
    case versionConflict(current: Int)
    case notAnImage
    case backgroundNotFound
    case pronunciationsNotImported
}
