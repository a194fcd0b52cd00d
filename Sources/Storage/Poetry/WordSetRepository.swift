import Accounts
import Foundation
import MagneticPoetry
import SQLKit

/// A profile's own word sets (the built-in ones live in the domain module).
public struct WordSetRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func ownSets(profileID: String) async throws -> [WordSet] {
        try await database.select().columns("id", "name", "words_json").from("poetry_word_sets")
            .where("profile_id", .equal, profileID).orderBy("created_at").orderBy("id")
            .all().map(Self.wordSet)
    }

    /// A built-in set, or one of the profile's own; nil for someone else's.
    public func find(id: String, profileID: String?) async throws -> WordSet? {
        if let builtIn = BuiltInWordSets.find(id: id) { return builtIn }
        guard let profileID else { return nil }
        return try await database.select().columns("id", "name", "words_json").from("poetry_word_sets")
            .where("id", .equal, id).where("profile_id", .equal, profileID)
            .first().map(Self.wordSet)
    }

    public func create(profileID: String, name: String, words: [String], at date: Date = Date()) async throws -> WordSet {
        let set = WordSet(id: "s" + Token.make(length: 15), name: name, builtIn: false, words: words)
        try await database.insert(into: "poetry_word_sets")
            .columns("id", "profile_id", "name", "words_json", "created_at", "updated_at")
            .values(
                SQLBind(set.id), SQLBind(profileID), SQLBind(name), SQLBind(try Self.json(words)),
                SQLBind(date.millisecondsSince1970), SQLBind(date.millisecondsSince1970)
            )
            .run()
        return set
    }

    /// Replaces name and words of the profile's own set; nil when it has no such set.
    public func replace(id: String, profileID: String, name: String, words: [String], at date: Date = Date()) async throws -> WordSet? {
        let rows = try await database.update("poetry_word_sets")
            .set("name", to: name).set("words_json", to: try Self.json(words)).set("updated_at", to: date.millisecondsSince1970)
            .where("id", .equal, id).where("profile_id", .equal, profileID)
            .returning("id").all()
        return rows.isEmpty ? nil : WordSet(id: id, name: name, builtIn: false, words: words)
    }

    public func delete(id: String, profileID: String) async throws -> Bool {
        !(try await database.delete(from: "poetry_word_sets").where("id", .equal, id).where("profile_id", .equal, profileID)
            .returning("id").all()).isEmpty
    }

    static func wordSet(_ row: any SQLRow) throws -> WordSet {
        let words = try JSONDecoder().decode([String].self, from: Data(try row.decode(column: "words_json", as: String.self).utf8))
        return WordSet(
            id: try row.decode(column: "id", as: String.self), name: try row.decode(column: "name", as: String.self),
            builtIn: false, words: words)
    }

    static func json(_ words: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(words), as: UTF8.self)
    }
}
