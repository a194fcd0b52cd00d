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

    /// Replaces name and words of the profile's own set; nil when it has no such set. An edit made on a set opened as
    /// `base` keeps what another device changed meanwhile (`WordSet.edited`). The result is checked as a new set is:
    /// its rules (`PoetryText.wordSet`) and a name no other set of the person has.
    public func replace(
        id: String, profileID: String, name: String, words: [String], base: (name: String, words: [String])? = nil,
        at date: Date = Date()
    ) async throws -> WordSet? {
        try await database.transaction { db -> WordSet? in
            guard
                let current = try await db.select().columns("id", "name", "words_json").from("poetry_word_sets")
                    .where("id", .equal, id).where("profile_id", .equal, profileID).first().map(Self.wordSet)
            else { return nil }
            let edit = base.map { WordSet.edited(name: name, words: words, base: $0, current: current) } ?? (name: name, words: words)
            let checked = try PoetryText.wordSet(name: edit.name, words: edit.words)
            try await Self.requireFreeName(checked.name, profileID: profileID, except: id, on: db)
            try await db.update("poetry_word_sets")
                .set("name", to: checked.name).set("words_json", to: try Self.json(checked.words))
                .set("updated_at", to: date.millisecondsSince1970)
                .where("id", .equal, id).where("profile_id", .equal, profileID).run()
            return WordSet(id: id, name: checked.name, builtIn: false, words: checked.words)
        }
    }

    /// Two sets of one person never share a name (ignoring case), nor take a built-in set's: the picker shows names.
    public func requireFreeName(_ name: String, profileID: String, except id: String? = nil) async throws {
        try await Self.requireFreeName(name, profileID: profileID, except: id, on: database)
    }

    static func requireFreeName(_ name: String, profileID: String, except id: String?, on db: any SQLDatabase) async throws {
        let own = try await db.select().columns("id", "name").from("poetry_word_sets").where("profile_id", .equal, profileID).all()
        let taken =
            try BuiltInWordSets.all.contains { $0.name.lowercased() == name.lowercased() }
            || own.contains { row in
                try row.decode(column: "id", as: String.self) != id
                    && row.decode(column: "name", as: String.self).lowercased() == name.lowercased()
            }
        if taken { throw PoetryError.wordSetNameTaken(name) }
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
