import Accounts
import DatabaseDrivers
import Foundation
import MagneticPoetry
import Pictures
import SQLKit

/// A profile's poems: each a board saved whole, with a version that rises on every save.
public struct PoemRepository: Sendable {
    /// A guest's published poem: its link may be shared, so the guest is kept (`ProfileRepository.deleteAbandonedGuests`).
    public static let publishedByGuest = "SELECT 1 FROM poetry_poems poem WHERE poem.profile_id = p.id AND poem.public_id IS NOT NULL"
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public struct Poem: Sendable, Equatable {
        public let id: String
        public let title: String
        public let version: Int
        public let updatedAt: Date
        public let board: Board?
        public let hasBackground: Bool
        public let publicId: String?

        /// The same poem holding `board`.
        public func with(board: Board) -> Poem {
            Poem(
                id: id, title: title, version: version, updatedAt: updatedAt, board: board, hasBackground: hasBackground, publicId: publicId
            )
        }
    }

    static let summaryColumns = ["id", "title", "version", "updated_at", "has_background", "public_id"]

    /// The profile's poems, most recently changed first, without their boards.
    public func list(profileID: String) async throws -> [Poem] {
        try await database.select().columns(Self.summaryColumns).from("poetry_poems")
            .where("profile_id", .equal, profileID)
            .orderBy("updated_at", .descending).orderBy("id")
            .all().map { try Self.poem($0, board: nil) }
    }

    public func find(id: String, profileID: String) async throws -> Poem? {
        guard
            let row = try await database.select().columns(Self.summaryColumns + ["board_json"]).from("poetry_poems")
                .where("id", .equal, id).where("profile_id", .equal, profileID).first()
        else { return nil }
        return try Self.poem(row, board: try Self.board(row))
    }

    /// `boardJSON`: the board as JSON text when the caller has written it already (the API writes it by hand,
    /// faster than JSONEncoder); it must decode to `board`.
    public func create(profileID: String, title: String, board: Board, boardJSON: String? = nil, at date: Date = Date()) async throws
        -> Poem
    {
        let id = "p" + Token.make(length: 15)
        try await database.insert(into: "poetry_poems")
            .columns("id", "profile_id", "title", "version", "board_json", "word_set_id", "has_background", "created_at", "updated_at")
            .values(
                SQLBind(id), SQLBind(profileID), SQLBind(title), SQLBind(1), SQLBind(try boardJSON ?? Self.json(board)),
                SQLBind(board.wordSetId),
                SQLBind(false), SQLBind(date.millisecondsSince1970), SQLBind(date.millisecondsSince1970)
            )
            .run()
        return Poem(
            id: id, title: title, version: 1, updatedAt: Date(millisecondsSince1970: date.millisecondsSince1970),
            board: board, hasBackground: false, publicId: nil)
    }

    /// Replaces title and board in one statement if `version` is still the current one.
    /// Throws `versionConflict` with the current version when another save came first; nil when there is no such poem.
    /// Gives back the board as stored too, so the answer need not encode it a second time. `boardJSON` as in `create`.
    public func save(
        id: String, profileID: String, version: Int, title: String, board: Board, boardJSON: String? = nil, at date: Date = Date()
    ) async throws -> (poem: Poem, boardJSON: String)? {
        let boardJSON = try boardJSON ?? Self.json(board)
        let updated = try await Self.saveQuery.first(
            [title, boardJSON, board.wordSetId, date.millisecondsSince1970, id, profileID, version], on: database)
        if let updated { return (try Self.poem(updated, board: board), boardJSON) }
        guard let current = try await find(id: id, profileID: profileID) else { return nil }
        throw PoetryError.versionConflict(current: current.version)
    }

    /// A save is Poetry's busiest write (every move of a magnet): its text is written once (see `PreparedQuery`).
    /// Values: title, board, word set, time; then the poem, its profile and the version the save was made from.
    static let saveQuery = PreparedQuery(isRead: false) { database, values in
        let nextVersion: any SQLExpression = SQLBinaryExpression(SQLColumn("version"), .add, SQLLiteral.numeric("1"))
        let returned: [any SQLExpression] = summaryColumns.map { SQLColumn($0) }
        var update: SQLUpdateBuilder = database.update("poetry_poems")
        update = update.set("title", to: values[0]).set("board_json", to: values[1]).set("word_set_id", to: values[2])
        update = update.set("version", to: nextVersion).set("updated_at", to: values[3])
        update = update.where("id", .equal, values[4]).where("profile_id", .equal, values[5]).where("version", .equal, values[6])
        var statement = update.update
        statement.returning = SQLReturning(returned)
        return statement
    }

    public func delete(id: String, profileID: String) async throws -> Bool {
        !(try await database.delete(from: "poetry_poems").where("id", .equal, id).where("profile_id", .equal, profileID)
            .returning("id").all()).isEmpty
    }

    /// How many of the profile's poems use a word set.
    public func count(usingWordSet wordSetID: String, profileID: String) async throws -> Int {
        try await database.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("poetry_poems")
            .where("profile_id", .equal, profileID).where("word_set_id", .equal, wordSetID)
            .first()?.decode(column: "n", as: Int.self) ?? 0
    }

    // MARK: Background

    /// Stores the picture and marks the poem; false when the profile has no such poem.
    public func setBackground(poemID: String, profileID: String, kind: ImageKind, bytes: [UInt8]) async throws -> Bool {
        try await database.transaction { db in
            let owned = try await db.update("poetry_poems").set("has_background", to: true)
                .where("id", .equal, poemID).where("profile_id", .equal, profileID).returning("id").all()
            guard !owned.isEmpty else { return false }
            try await db.delete(from: "poetry_backgrounds").where("poem_id", .equal, poemID).run()
            try await db.insert(into: "poetry_backgrounds").columns("poem_id", "content_type", "bytes")
                .values(SQLBind(poemID), SQLBind(kind.contentType), SQLBind(Data(bytes))).run()
            return true
        }
    }

    public func background(poemID: String, profileID: String) async throws -> (contentType: String, bytes: Data)? {
        guard
            let row = try await database.select()
                .column(SQLColumn("content_type", table: "poetry_backgrounds")).column(SQLColumn("bytes", table: "poetry_backgrounds"))
                .from("poetry_backgrounds")
                .join("poetry_poems", on: SQLColumn("poem_id", table: "poetry_backgrounds"), .equal, SQLColumn("id", table: "poetry_poems"))
                .where(SQLColumn("poem_id", table: "poetry_backgrounds"), .equal, SQLBind(poemID))
                .where(SQLColumn("profile_id", table: "poetry_poems"), .equal, SQLBind(profileID))
                .first()
        else { return nil }
        return (try row.decode(column: "content_type", as: String.self), try row.decode(column: "bytes", as: Data.self))
    }

    public func removeBackground(poemID: String, profileID: String) async throws -> Bool {
        try await database.transaction { db in
            let owned = try await db.update("poetry_poems").set("has_background", to: false)
                .where("id", .equal, poemID).where("profile_id", .equal, profileID).returning("id").all()
            guard !owned.isEmpty else { return false }
            try await db.delete(from: "poetry_backgrounds").where("poem_id", .equal, poemID).run()
            return true
        }
    }

    // MARK: Publishing

    /// Gives the poem a public id (keeping an existing one); nil when the profile has no such poem.
    public func publish(id: String, profileID: String) async throws -> String? {
        guard let poem = try await find(id: id, profileID: profileID) else { return nil }
        if let publicId = poem.publicId { return publicId }
        let publicId = Token.make(length: 12)
        try await database.update("poetry_poems").set("public_id", to: publicId)
            .where("id", .equal, id).where("profile_id", .equal, profileID).run()
        return publicId
    }

    public func unpublish(id: String, profileID: String) async throws -> Bool {
        !(try await database.update("poetry_poems").set("public_id", to: SQLLiteral.null)
            .where("id", .equal, id).where("profile_id", .equal, profileID).returning("id").all()).isEmpty
    }

    /// A published poem by its public id, with its owner for reading the background.
    public func published(publicId: String) async throws -> (poem: Poem, profileID: String)? {
        guard
            let row = try await database.select().columns(Self.summaryColumns + ["board_json", "profile_id"]).from("poetry_poems")
                .where("public_id", .equal, publicId).first()
        else { return nil }
        return (try Self.poem(row, board: try Self.board(row)), try row.decode(column: "profile_id", as: String.self))
    }

    /// A poem read is the poetry page's hottest query: its text is written once (see `PreparedQuery`).
    static let findStoredQuery = PreparedQuery(isRead: true) { database, values in
        database.select().columns(summaryColumns + ["board_json"]).from("poetry_poems")
            .where("id", .equal, values[0]).where("profile_id", .equal, values[1]).select
    }

    /// A poem without its decoded board, and the board as stored (JSON), for reads that pass it on as it is.
    public func findStored(id: String, profileID: String) async throws -> (poem: Poem, boardJSON: String)? {
        guard let row = try await Self.findStoredQuery.first([id, profileID], on: database) else { return nil }
        return (try Self.poem(row, board: nil), try row.decode(column: "board_json", as: String.self))
    }

    // MARK: Rows

    static func poem(_ row: any SQLRow, board: Board?) throws -> Poem {
        Poem(
            id: try row.decode(column: "id", as: String.self),
            title: try row.decode(column: "title", as: String.self),
            version: try row.decode(column: "version", as: Int.self),
            updatedAt: Date(millisecondsSince1970: try row.decode(column: "updated_at", as: Int64.self)),
            board: board,
            hasBackground: try row.decode(column: "has_background", as: Bool.self),
            publicId: try row.decode(column: "public_id", as: String?.self)
        )
    }

    static func board(_ row: any SQLRow) throws -> Board {
        try JSONDecoder().decode(Board.self, from: Data(try row.decode(column: "board_json", as: String.self).utf8))
    }

    static func json(_ board: Board) throws -> String {
        String(decoding: try JSONEncoder().encode(board), as: UTF8.self)
    }
}
