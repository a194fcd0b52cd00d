import ChooseYourDestiny
import DatabaseDrivers
import Foundation
import SQLKit

/// Published stories (whole documents), their pictures, each profile's library and reading progress.
public struct StoryRepository: Sendable {
    /// A guest's published story: others may be reading it, so the guest is kept (`ProfileRepository.deleteAbandonedGuests`).
    public static let ownedByGuest = "SELECT 1 FROM stories story WHERE story.owner_profile_id = p.id"
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public struct Stored: Sendable {
        public let id: String
        public let ownerProfileID: String?
        /// The owning account's username: the story's byline. Nil for the house's stories (no owner).
        public let ownerName: String?
        /// How it came in: "upload" (the API), "cli" (`trove import story`, the samples) or "github" (`trove stories sync`).
        public let source: String
        /// Read step by step through the Twine interpreter (the story keeps variables); see `twineHTML`.
        public let interactive: Bool
        public let story: Story
        public let updatedAt: Date
    }

    /// A story as a catalog lists it: its stored summary, not the story.
    public struct Listed: Sendable {
        public let id: String
        public let ownerProfileID: String?
        public let ownerName: String?
        public let source: String
        public let interactive: Bool
        public let summary: StorySummary
        public let updatedAt: Date

        /// The listing of a story read whole.
        public init(_ stored: Stored) {
            id = stored.id
            ownerProfileID = stored.ownerProfileID
            ownerName = stored.ownerName
            source = stored.source
            interactive = stored.interactive
            summary = StorySummary(stored.story)
            updatedAt = stored.updatedAt
        }

        init(row: any SQLRow) throws {
            func text(_ column: String) throws -> String? {
                try row.decodeNil(column: column) ? nil : row.decode(column: column, as: String.self)
            }
            id = try row.decode(column: "id", as: String.self)
            ownerProfileID = try text("owner_profile_id")
            ownerName = try text("owner_name")
            source = try row.decode(column: "source", as: String.self)
            interactive = try row.decode(column: "interactive", as: Int.self) == 1
            summary = StorySummary(
                name: try row.decode(column: "name", as: String.self), summary: try text("summary") ?? "", author: try text("author"),
                description: try text("description"), language: try text("language"), rating: try text("rating"),
                picPath: try text("pic_path"), chapterCount: try row.decode(column: "chapter_count", as: Int?.self) ?? 0,
                endingCount: try row.decode(column: "ending_count", as: Int?.self) ?? 0)
            updatedAt = Date(millisecondsSince1970: try row.decode(column: "updated_at", as: Int64.self))
        }
    }

    public struct Resource: Sendable {
        public let name: String
        public let contentType: String
        public let bytes: [UInt8]

        public init(name: String, contentType: String, bytes: [UInt8]) {
            self.name = name
            self.contentType = contentType
            self.bytes = bytes
        }
    }

    /// Every story as the catalog lists it, by name: its summary columns, never its document.
    public func listed() async throws -> [Listed] {
        try await selectListed().orderBy(SQLColumn("name", table: "stories")).all().map(Listed.init(row:))
    }

    /// These stories as the catalog lists them, in no particular order.
    public func listed(ids: [String]) async throws -> [Listed] {
        guard !ids.isEmpty else { return [] }
        return try await selectListed().where(SQLColumn("id", table: "stories"), .in, SQLBind.group(ids)).all().map(Listed.init(row:))
    }

    /// The catalog's columns of each story (`StorySummary`), and their types.
    static let summaryColumns: [(String, SQLDataType)] = [
        ("summary", .text), ("author", .text), ("description", .text), ("language", .text), ("rating", .text), ("pic_path", .text),
        ("chapter_count", .bigint), ("ending_count", .bigint),
    ]

    /// `update` setting the summary columns (and the name) to `summary`.
    static func setSummary(of update: SQLUpdateBuilder, to summary: StorySummary) -> SQLUpdateBuilder {
        summaryValues(summary).reduce(update) { update, column in update.set(SQLIdentifier(column.0), to: column.1) }
    }

    /// The name and the summary columns' values.
    static func summaryValues(_ summary: StorySummary) -> [(String, SQLBind)] {
        [
            ("name", SQLBind(summary.name)), ("summary", SQLBind(summary.summary)), ("author", SQLBind(summary.author)),
            ("description", SQLBind(summary.description)), ("language", SQLBind(summary.language)),
            ("rating", SQLBind(summary.rating)), ("pic_path", SQLBind(summary.picPath)),
            ("chapter_count", SQLBind(summary.chapterCount)), ("ending_count", SQLBind(summary.endingCount)),
        ]
    }

    private func selectListed() -> SQLSelectBuilder {
        var select = database.select()
        for column in ["id", "owner_profile_id", "name", "source", "updated_at"] + Self.summaryColumns.map(\.0) {
            select = select.column(SQLColumn(column, table: "stories"))
        }
        return Self.fromStoriesWithOwners(select)
    }

    /// The stories `profileID` published, by name.
    public func published(by profileID: String) async throws -> [Stored] {
        try await selectStored().where(SQLColumn("owner_profile_id", table: "stories"), .equal, SQLBind(profileID))
            .orderBy(SQLColumn("name", table: "stories")).all().map(Self.stored)
    }

    public func find(id: String) async throws -> Stored? {
        try await selectStored().where(SQLColumn("id", table: "stories"), .equal, SQLBind(id)).first().map(Self.stored)
    }

    /// Stories with their owner's username (a left join: the house's stories have none).
    private func selectStored() -> SQLSelectBuilder {
        Self.fromStoriesWithOwners(
            database.select()
                .column(SQLColumn("id", table: "stories")).column(SQLColumn("owner_profile_id", table: "stories"))
                .column(SQLColumn("story_json", table: "stories")).column(SQLColumn("updated_at", table: "stories"))
                .column(SQLColumn("source", table: "stories")))
    }

    /// `select` from the stories, with whether each is played step by step and its owner's username.
    private static func fromStoriesWithOwners(_ select: SQLSelectBuilder) -> SQLSelectBuilder {
        select
            .column(SQLAlias(SQLRaw("(CASE WHEN stories.twine_html IS NULL THEN 0 ELSE 1 END)"), as: SQLIdentifier("interactive")))
            .column(SQLAlias(SQLColumn("username", table: "profiles"), as: SQLIdentifier("owner_name")))
            .from("stories")
            .join(
                "profiles", method: SQLJoinMethod.left, on: SQLColumn("owner_profile_id", table: "stories"), .equal,
                SQLColumn("id", table: "profiles"))
    }

    /// Adds or replaces a story (with its pictures when given). `owner` nil: the samples, the command line.
    /// `twineHTML`: the Twine story behind a story that keeps variables, played step by step.
    /// Replacing someone else's story is refused with `storyExists`.
    public func save(
        id: String, story: Story, owner: String?, source: String, resources: [Resource]? = nil, twineHTML: String? = nil, now: Date = Date()
    ) async throws {
        try await database.transaction { db in
            let existing = try await db.select().column("owner_profile_id").from("stories").where("id", .equal, id).first()
            if let existing {
                let currentOwner =
                    try existing.decodeNil(column: "owner_profile_id") ? nil : existing.decode(column: "owner_profile_id", as: String.self)
                guard currentOwner == owner else { throw StoryError.storyExists }
                try await Self.setSummary(of: db.update("stories"), to: StorySummary(story))
                    .set("story_json", to: SQLBind(StoryFile.write(story)))
                    .set("source", to: SQLBind(source)).set("twine_html", to: SQLBind(twineHTML))
                    .set("updated_at", to: SQLBind(now.millisecondsSince1970)).where("id", .equal, id).run()
                // A place in the old version of a Twine story may not replay in the new one: its readers start again.
                try await db.update("story_progress").set("twine_reading", to: SQLLiteral.null).where("story_id", .equal, id).run()
                // Progress along paths the new version no longer has is dropped, so readers restart cleanly.
                for row in try await db.select().columns("profile_id", "path").from("story_progress").where("story_id", .equal, id).all() {
                    let path = Self.list(try row.decode(column: "path", as: String.self))
                    if (try? ReadingProgress(path: [], endingsFound: []).moving(to: path, in: story)) == nil {
                        try await db.delete(from: "story_progress").where("story_id", .equal, id)
                            .where("profile_id", .equal, try row.decode(column: "profile_id", as: String.self)).run()
                    }
                }
            } else {
                let summary = Self.summaryValues(StorySummary(story))
                try await db.insert(into: "stories")
                    .columns(
                        ["id", "owner_profile_id", "story_json", "source", "twine_html", "created_at", "updated_at"] + summary.map(\.0)
                    )
                    .values(
                        [
                            SQLBind(id), SQLBind(owner), SQLBind(StoryFile.write(story)), SQLBind(source), SQLBind(twineHTML),
                            SQLBind(now.millisecondsSince1970), SQLBind(now.millisecondsSince1970),
                        ] + summary.map(\.1)
                    ).run()
            }
            if let resources {
                try await db.delete(from: "story_resources").where("story_id", .equal, id).run()
                for resource in resources {
                    try await db.insert(into: "story_resources").columns("story_id", "name", "content_type", "bytes")
                        .values(SQLBind(id), SQLBind(resource.name), SQLBind(resource.contentType), SQLBind(Data(resource.bytes))).run()
                }
            }
        }
    }

    /// Only its owner may withdraw a story; anyone else's attempt finds nothing.
    public func delete(id: String, owner: String) async throws {
        guard let stored = try await find(id: id), stored.ownerProfileID == owner else { throw StoryError.storyNotFound }
        try await database.delete(from: "stories").where("id", .equal, id).run()
    }

    public func resource(storyID: String, name: String) async throws -> Resource? {
        try await database.select().columns("name", "content_type", "bytes").from("story_resources")
            .where("story_id", .equal, storyID).where("name", .equal, name).first().map { row in
                Resource(
                    name: try row.decode(column: "name", as: String.self),
                    contentType: try row.decode(column: "content_type", as: String.self),
                    bytes: [UInt8](try row.decode(column: "bytes", as: Data.self)))
            }
    }

    // MARK: Library

    /// The profile's library, most recently added first.
    public func library(profileID: String) async throws -> [String] {
        try await database.select().column("story_id").from("story_library").where("profile_id", .equal, profileID)
            .orderBy(SQLColumn("added_at"), SQLDirection.descending).all().map { try $0.decode(column: "story_id", as: String.self) }
    }

    public func addToLibrary(storyID: String, profileID: String, now: Date = Date()) async throws {
        try await database.insert(into: "story_library").columns("profile_id", "story_id", "added_at")
            .values(SQLBind(profileID), SQLBind(storyID), SQLBind(now.millisecondsSince1970))
            .ignoringConflicts(with: ["profile_id", "story_id"]).run()
    }

    public func removeFromLibrary(storyID: String, profileID: String) async throws {
        try await database.delete(from: "story_library").where("profile_id", .equal, profileID).where("story_id", .equal, storyID).run()
    }

    // MARK: Progress

    public func progress(storyID: String, profileID: String) async throws -> (ReadingProgress, Date)? {
        try await database.select().columns("path", "endings_found", "updated_at").from("story_progress")
            .where("profile_id", .equal, profileID).where("story_id", .equal, storyID).first().map { row in
                (
                    ReadingProgress(
                        path: Self.list(try row.decode(column: "path", as: String.self)),
                        endingsFound: Self.list(try row.decode(column: "endings_found", as: String.self))),
                    Date(millisecondsSince1970: try row.decode(column: "updated_at", as: Int64.self))
                )
            }
    }

    // MARK: Twine stories

    static let twineVersionQuery = PreparedQuery(isRead: true) { database, values in
        database.select().column("updated_at")
            .column(SQLAlias(SQLRaw("(CASE WHEN twine_html IS NULL THEN 0 ELSE 1 END)"), as: SQLIdentifier("interactive")))
            .from("stories").where("id", .equal, values[0]).select
    }

    /// Whether a story is read through the Twine interpreter, and its version, without reading the story: each
    /// step of a reader asks it (`find` reads and parses the whole story, and the Twine file is kept parsed).
    public func twineVersion(storyID: String) async throws -> (interactive: Bool, updatedAt: Date)? {
        guard let row = try await Self.twineVersionQuery.first([storyID], on: database) else { return nil }
        return (
            try row.decode(column: "interactive", as: Int.self) == 1,
            Date(millisecondsSince1970: try row.decode(column: "updated_at", as: Int64.self))
        )
    }

    /// The Twine story behind an interactive story, as saved.
    public func twineHTML(storyID: String) async throws -> String? {
        guard let row = try await database.select().column("twine_html").from("stories").where("id", .equal, storyID).first(),
            try !row.decodeNil(column: "twine_html")
        else { return nil }
        return try row.decode(column: "twine_html", as: String.self)
    }

    static let twinePlaceQuery = PreparedQuery(isRead: true) { database, values in
        database.select().columns("twine_reading", "path", "endings_found").from("story_progress")
            .where("profile_id", .equal, values[1]).where("story_id", .equal, values[0]).select
    }

    /// A reader's place in an interactive story: the interpreter's reading as JSON, and the progress it gave (one
    /// read of the row both live in).
    public func twinePlace(storyID: String, profileID: String) async throws -> (reading: String, progress: ReadingProgress)? {
        guard let row = try await Self.twinePlaceQuery.first([storyID, profileID], on: database),
            try !row.decodeNil(column: "twine_reading")
        else { return nil }
        return (
            try row.decode(column: "twine_reading", as: String.self),
            ReadingProgress(
                path: Self.list(try row.decode(column: "path", as: String.self)),
                endingsFound: Self.list(try row.decode(column: "endings_found", as: String.self)))
        )
    }

    /// Saves a reader's place in an interactive story with the progress it stands for (the passages read, as the
    /// trail; the endings found), so library cards and the map read it as any story's.
    public func saveTwineReading(_ reading: String, progress: ReadingProgress, storyID: String, profileID: String, now: Date = Date())
        async throws
    {
        try await database.insert(into: "story_progress").columns(
            "profile_id", "story_id", "path", "endings_found", "updated_at", "twine_reading"
        )
        .values(
            SQLBind(profileID), SQLBind(storyID), SQLBind(Self.text(progress.path)), SQLBind(Self.text(progress.endingsFound)),
            SQLBind(now.millisecondsSince1970), SQLBind(reading)
        )
        .onConflict(with: ["profile_id", "story_id"]) {
            $0.set(excludedValueOf: "path").set(excludedValueOf: "endings_found").set(excludedValueOf: "updated_at").set(
                excludedValueOf: "twine_reading")
        }
        .run()
    }

    /// Every story's progress for one profile, by story id (for the library's and catalog's cards).
    public func allProgress(profileID: String) async throws -> [String: (ReadingProgress, Date)] {
        var found: [String: (ReadingProgress, Date)] = [:]
        for row in try await database.select().columns("story_id", "path", "endings_found", "updated_at").from("story_progress")
            .where("profile_id", .equal, profileID).all()
        {
            found[try row.decode(column: "story_id", as: String.self)] = (
                ReadingProgress(
                    path: Self.list(try row.decode(column: "path", as: String.self)),
                    endingsFound: Self.list(try row.decode(column: "endings_found", as: String.self))),
                Date(millisecondsSince1970: try row.decode(column: "updated_at", as: Int64.self))
            )
        }
        return found
    }

    public func saveProgress(_ progress: ReadingProgress, storyID: String, profileID: String, now: Date = Date()) async throws {
        try await database.insert(into: "story_progress").columns("profile_id", "story_id", "path", "endings_found", "updated_at")
            .values(
                SQLBind(profileID), SQLBind(storyID), SQLBind(Self.text(progress.path)), SQLBind(Self.text(progress.endingsFound)),
                SQLBind(now.millisecondsSince1970)
            )
            .onConflict(with: ["profile_id", "story_id"]) {
                $0.set(excludedValueOf: "path").set(excludedValueOf: "endings_found").set(excludedValueOf: "updated_at")
            }
            .run()
    }

    static func stored(_ row: any SQLRow) throws -> Stored {
        Stored(
            id: try row.decode(column: "id", as: String.self),
            ownerProfileID: try row.decodeNil(column: "owner_profile_id") ? nil : row.decode(column: "owner_profile_id", as: String.self),
            ownerName: try row.decodeNil(column: "owner_name") ? nil : row.decode(column: "owner_name", as: String.self),
            source: try row.decode(column: "source", as: String.self),
            interactive: try row.decode(column: "interactive", as: Int.self) == 1,
            story: try StoryFile.read(try row.decode(column: "story_json", as: String.self)),
            updatedAt: Date(millisecondsSince1970: try row.decode(column: "updated_at", as: Int64.self))
        )
    }

    /// Lists of chapter ids are stored as JSON arrays (ids may hold any character).
    static func text(_ list: [String]) -> String {
        String(decoding: try! JSONEncoder().encode(list), as: UTF8.self)
    }

    /// A list `text(_:)` wrote. Read for every passage a reader is shown, so the usual list, whose strings need no
    /// escape (`["Dock","Warehouse"]`), is read here byte by byte; anything else (an escape, a space) is JSONDecoder's.
    static func list(_ text: String) -> [String] {
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes -> [String]? in
            let (quote, comma) = (UInt8(ascii: "\""), UInt8(ascii: ","))
            guard bytes.count >= 2, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
            let end = bytes.count - 1
            var items: [String] = []
            var index = 1
            while index < end {
                guard bytes[index] == quote, let close = bytes[(index + 1)..<end].firstIndex(of: quote) else { return nil }
                let item = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<close])
                guard !item.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\\") }) else { return nil }
                items.append(String(decoding: item, as: UTF8.self))
                index = close + 1
                if index < end {
                    guard bytes[index] == comma, index + 1 < end else { return nil }
                    index += 1
                }
            }
            return items
        }
        if let plain, let plain { return plain }
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }
}
