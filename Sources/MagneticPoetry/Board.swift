import Foundation

/// A poem's board: which word set, the magnets where the person left them, and how they look.
/// Positions and sizes are relative to the board, so a poem looks the same on any screen.
public struct Board: Codable, Sendable, Equatable {
    public var wordSetId: String
    public var font: Font
    public var fontScale: Double
    public var magnets: [Magnet]
    public var extraWords: [String]
    /// The board's width over its height where the poem was last arranged (none for poems saved before it was kept):
    /// its published page draws a board of that shape, so every word keeps its place beside the others.
    public var aspect: Double?

    public init(wordSetId: String, font: Font = .sans, fontScale: Double = 1, magnets: [Magnet] = [], extraWords: [String] = []) {
        self.wordSetId = wordSetId
        self.font = font
        self.fontScale = fontScale
        self.magnets = magnets
        self.extraWords = extraWords
    }

    enum CodingKeys: String, CodingKey {
        case wordSetId = "word_set_id"
        case font
        case fontScale = "font_scale"
        case magnets
        case extraWords = "extra_words"
        case aspect
    }

    /// The keys boards were saved with before the API took snake_case: a board kept in an older export, or queued
    /// on a device before its server was upgraded, still reads.
    private enum LegacyKeys: String, CodingKey {
        case wordSetId, fontScale, extraWords
    }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        let legacy = try decoder.container(keyedBy: LegacyKeys.self)
        wordSetId =
            try keys.decodeIfPresent(String.self, forKey: .wordSetId) ?? legacy.decode(String.self, forKey: .wordSetId)
        font = try keys.decode(Font.self, forKey: .font)
        fontScale =
            try keys.decodeIfPresent(Double.self, forKey: .fontScale) ?? legacy.decode(Double.self, forKey: .fontScale)
        magnets = try keys.decode([Magnet].self, forKey: .magnets)
        extraWords =
            try keys.decodeIfPresent([String].self, forKey: .extraWords)
            ?? legacy.decode([String].self, forKey: .extraWords)
        aspect = try keys.decodeIfPresent(Double.self, forKey: .aspect)
    }

    public enum Font: String, Codable, Sendable, CaseIterable {
        case serif, sans, mono, rounded, typewriter
    }

    public struct Magnet: Codable, Sendable, Equatable {
        public var id: String
        public var word: String
        /// Top-left corner as fractions (0…1) of the board's width and height.
        public var x: Double
        public var y: Double
        /// Degrees, -180…180.
        public var rotation: Double
        /// Stacking order: higher is in front.
        public var z: Int

        public init(id: String, word: String, x: Double, y: Double, rotation: Double = 0, z: Int = 0) {
            self.id = id
            self.word = word
            self.x = x
            self.y = y
            self.rotation = rotation
            self.z = z
        }
    }

    public static let maximumMagnets = 400
    public static let maximumExtraWords = 200
    public static let fontScaleRange = 0.5...2.0
    public static let aspectRange = 0.25...4.0

    /// Checks the board against its word set: every value in range, every magnet's word from the set or
    /// added by the person. Throws a message naming the first problem.
    public func validated(against wordSet: WordSet) throws(PoetryError) -> Board {
        guard wordSet.id == wordSetId else { throw .invalid("The board's word set is '\(wordSetId)', not '\(wordSet.id)'.") }
        guard Self.fontScaleRange.contains(fontScale) else { throw .invalid("font_scale must be from 0.5 to 2.") }
        if let aspect, !Self.aspectRange.contains(aspect) { throw .invalid("aspect (width over height) must be from 0.25 to 4.") }
        guard magnets.count <= Self.maximumMagnets else { throw .invalid("A board holds at most \(Self.maximumMagnets) magnets.") }
        guard extraWords.count <= Self.maximumExtraWords else {
            throw .invalid("A board holds at most \(Self.maximumExtraWords) added words.")
        }
        var board = self
        board.extraWords = try extraWords.map { word throws(PoetryError) in try PoetryText.word(word) }
        let extras = board.extraWords.isEmpty ? [] : Set(board.extraWords)
        var ids: Set<String> = []
        ids.reserveCapacity(magnets.count)
        for (index, magnet) in magnets.enumerated() {
            func name() -> String { "Magnet \(index + 1)" }
            guard (1...40).contains(magnet.id.count) else { throw .invalid("\(name()) needs an id of 1 to 40 characters.") }
            guard ids.insert(magnet.id).inserted else { throw .invalid("\(name())'s id '\(magnet.id)' is used twice.") }
            guard wordSet.wordLookup.contains(magnet.word) || extras.contains(magnet.word) else {
                throw .invalid("\(name())'s word '\(magnet.word.prefix(40))' is neither in the word set nor added to the board.")
            }
            guard (0...1).contains(magnet.x), (0...1).contains(magnet.y) else {
                throw .invalid("\(name()) is outside the board (x and y run from 0 to 1).")
            }
            guard (-180...180).contains(magnet.rotation) else { throw .invalid("\(name())'s rotation must be from -180 to 180 degrees.") }
            guard (0...100_000).contains(magnet.z) else { throw .invalid("\(name())'s z must be from 0 to 100000.") }
        }
        return board
    }
}
