import MagneticPoetry
import SQLKit

/// The CMU Pronouncing Dictionary, imported: rhymes, alliterations and syllable counts.
public struct PronunciationRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Replaces the dictionary in one transaction, in batches, with each word's frequency bucket
    /// (lower is more common); returns the number of words.
    public func replaceAll(_ pronunciations: [Pronunciation], frequencies: [String: Int]) async throws -> Int {
        try await database.transaction { db in
            try await db.delete(from: "pronunciations").run()
            for batch in stride(from: 0, to: pronunciations.count, by: 500).map({ pronunciations[$0..<min($0 + 500, pronunciations.count)] }
            ) {
                var insert = db.insert(into: "pronunciations")
                    .columns("word", "phones", "rhyme_key", "first_sound", "syllables", "frequency")
                for item in batch {
                    insert = insert.values(
                        SQLBind(item.word), SQLBind(item.phones.joined(separator: " ")), SQLBind(item.rhymeKey),
                        SQLBind(item.firstSound), SQLBind(item.syllables), SQLBind(frequencies[item.word]))
                }
                try await insert.run()
            }
            return pronunciations.count
        }
    }

    public func isImported() async throws -> Bool {
        try await database.select().column("word").from("pronunciations").limit(1).first() != nil
    }

    public func find(_ word: String) async throws -> Pronunciation? {
        try await database.select().columns("word", "phones").from("pronunciations").where("word", .equal, word.lowercased())
            .first().map {
                Pronunciation(
                    word: try $0.decode(column: "word", as: String.self),
                    phones: try $0.decode(column: "phones", as: String.self).split(separator: " ").map(String.init))
            }
    }

    /// Common words sharing the rhyme key, most common first, the word itself excluded; when there are fewer than
    /// `nearRhymesBelow` of them ("love" has few), near rhymes follow (`Pronunciation.nearRhymeKeys`).
    public func rhymes(of word: String, limit: Int = 40) async throws -> [String]? {
        guard let pronunciation = try await find(word) else { return nil }
        let perfect = try await words(where: "rhyme_key", in: [pronunciation.rhymeKey], excluding: pronunciation.word, limit: limit)
        let near = Pronunciation.nearRhymeKeys(of: pronunciation.rhymeKey)
        guard perfect.count < Self.nearRhymesBelow, !near.isEmpty else { return perfect }
        let more = try await words(where: "rhyme_key", in: near, excluding: pronunciation.word, limit: limit - perfect.count)
        return perfect + more
    }

    public static let nearRhymesBelow = 10

    /// Common words starting with the same sound, most common first.
    public func alliterations(of word: String, limit: Int = 40) async throws -> [String]? {
        guard let pronunciation = try await find(word) else { return nil }
        return try await words(where: "first_sound", in: [pronunciation.firstSound], excluding: pronunciation.word, limit: limit)
    }

    /// Syllable counts of the words found, by lower-cased word.
    public func syllables(of words: [String]) async throws -> [String: Int] {
        let keys = Array(Set(words.map { $0.lowercased() })).prefix(500)
        guard !keys.isEmpty else { return [:] }
        let rows = try await database.select().columns("word", "syllables").from("pronunciations")
            .where("word", .in, SQLBind.group(Array(keys))).all()
        return Dictionary(
            uniqueKeysWithValues: try rows.map {
                (try $0.decode(column: "word", as: String.self), try $0.decode(column: "syllables", as: Int.self))
            })
    }

    /// Only words in the frequency list count as common: the dictionary also holds many names and rarities.
    private func words(where column: String, in values: [String], excluding word: String, limit: Int) async throws -> [String] {
        try await database.select().column("word").from("pronunciations")
            .where(SQLColumn(column), .in, SQLBind.group(values)).where("word", .notEqual, word)
            .where("frequency", .isNot, SQLLiteral.null)
            .where(SQLFunction("LENGTH", args: SQLColumn("word")), .greaterThanOrEqual, SQLBind(2))
            .orderBy("frequency").orderBy("word")
            .limit(limit).all().map { try $0.decode(column: "word", as: String.self) }
    }
}
