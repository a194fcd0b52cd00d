import ChooseYourDestiny
import Foundation
import Hummingbird
import Storage

/// `/api/v1/stories…`: the catalog, publishing, libraries, reading progress and pictures.
struct StoriesAPIController {
    let stories: StoryRepository
    let schema: ByteBuffer

    /// `api`: the group at `/api/v1/stories`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get(use: catalog)
            .post(use: publish)
            .get("library", use: library)
            .get("authors", use: authors)
            .get("schema.json", use: schemaDocument)
        api.group("{id}")
            .get(use: story)
            .put("library", use: addToLibrary)
            .delete("library", use: removeFromLibrary)
            .get("progress", use: progress)
            .put("progress", use: saveProgress)
            .get("resources/{name}", use: resource)
        // Only its author changes or withdraws a story.
        api.withProfile("{id}", otherwise: StoryError.storyNotFound)
            .put(use: update)
            .delete(use: withdraw)
    }

    struct StoriesAnswer: APIAnswer {
        let stories: [StorySummaryJSON]
    }

    /// The catalog; `q` searches; `account=NAME` keeps one account's stories, `author=NAME` those of an author with
    /// no account here (a GitHub author's), `house=true` the house's own.
    @Sendable func catalog(_ request: Request, context: TroveRequestContext) async throws -> StoriesAnswer {
        let profileID = context.session.profile?.id
        let inLibrary = Set(try await libraryIDs(profileID))
        var all = try await stories.listed()
        if let query = request.queryString("q") {
            all = all.filter { StorySearch.matches($0.summary, query: query) }
        }
        if let account = request.queryString("account") {
            let name = account.lowercased()
            all = all.filter { $0.ownerName == name }
        }
        if let author = request.queryString("author") {
            all = all.filter { $0.ownerName == nil && StorySummaryJSON.byline($0).author == author && !Self.isHouse($0) }
        }
        if let house = request.queryString("house") {
            guard let wanted = Bool(house) else { throw APIError.badRequest("'house' is true or false.") }
            all = all.filter { Self.isHouse($0) == wanted }
        }
        let progress = try await progressSummaries(profileID, of: Set(all.map(\.id)))
        return StoriesAnswer(
            stories: all.map {
                StorySummaryJSON($0, inLibrary: inLibrary.contains($0.id), profileID: profileID, progress: progress[$0.id])
            })
    }

    /// The house's own stories: no account owns them and they carry the house's name (or none).
    static func isHouse(_ listed: StoryRepository.Listed) -> Bool {
        listed.ownerName == nil && StorySummaryJSON.byline(listed).author == StorySummaryJSON.houseAuthor
    }

    @Sendable func library(_ request: Request, context: TroveRequestContext) async throws -> StoriesAnswer {
        guard let profile = context.session.profile else { return StoriesAnswer(stories: []) }
        let ids = try await stories.library(profileID: profile.id)
        let listed = Dictionary(try await stories.listed(ids: ids).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let progress = try await progressSummaries(profile.id, of: Set(ids))
        return StoriesAnswer(
            stories: ids.compactMap { id in
                listed[id].map { StorySummaryJSON($0, inLibrary: true, profileID: profile.id, progress: progress[id]) }
            })
    }

    /// How far the visitor has read in each of `ids` they have begun: only those stories are read whole.
    private func progressSummaries(_ profileID: String?, of ids: Set<String>) async throws -> [String: StorySummaryJSON.ProgressSummary] {
        var summaries: [String: StorySummaryJSON.ProgressSummary] = [:]
        for (id, (reading, _)) in try await allProgress(profileID) where ids.contains(id) {
            if let story = try await stories.find(id: id)?.story, let summary = StorySummaryJSON.progress(reading, in: story) {
                summaries[id] = summary
            }
        }
        return summaries
    }

    struct AuthorJSON: Encodable {
        let name: String
        /// The account's username; nil for the house and for authors with no account here (GitHub's).
        @Nullable var account: String?
        let house: Bool
        let story_count: Int
    }

    struct AuthorsAnswer: APIAnswer {
        let authors: [AuthorJSON]
    }

    /// Everyone with a story in the catalog: the house first, then by name.
    @Sendable func authors(_ request: Request, context: TroveRequestContext) async throws -> AuthorsAnswer {
        struct Key: Hashable {
            let name: String
            let account: String?
        }
        var counts: [Key: Int] = [:]
        for listed in try await stories.listed() {
            counts[Key(name: StorySummaryJSON.byline(listed).author, account: listed.ownerName), default: 0] += 1
        }
        let authors = counts.map { key, count in
            AuthorJSON(
                name: key.name, account: key.account, house: key.account == nil && key.name == StorySummaryJSON.houseAuthor,
                story_count: count)
        }
        .sorted { ($0.house ? 0 : 1, $0.name.lowercased(), $0.account ?? "") < ($1.house ? 0 : 1, $1.name.lowercased(), $1.account ?? "") }
        return AuthorsAnswer(authors: authors)
    }

    @Sendable func story(_ request: Request, context: TroveRequestContext) async throws -> StoryJSON {
        let stored = try await requireStory(context)
        let profileID = context.session.profile?.id
        let inLibrary = try await libraryIDs(profileID).contains(stored.id)
        return StoryJSON(stored, inLibrary: inLibrary, profileID: profileID)
    }

    struct PublishedAnswer: APIAnswer {
        let id: String
        let warnings: [String]
    }

    @Sendable func publish(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<PublishedAnswer> {
        let owner = try await requireAuthor(context)
        let (accepted, pictures) = try await Self.accept(request)
        try await stories.save(
            id: accepted.id, story: accepted.story, owner: owner, source: "upload", resources: pictures,
            twineHTML: Self.twineHTML(accepted))
        // An author finds their own story in their library, as a reader who downloaded it would.
        try await stories.addToLibrary(storyID: accepted.id, profileID: owner)
        return EditedResponse(status: .created, response: PublishedAnswer(id: accepted.id, warnings: accepted.warnings))
    }

    /// An author replaces their own story; the id in the address wins over the file's.
    @Sendable func update(_ request: Request, context: ProfileRequestContext) async throws -> PublishedAnswer {
        let id = try context.parameters.require("id")
        let owner = context.profile.id
        guard let stored = try await stories.find(id: id), stored.ownerProfileID == owner else {
            throw StoryError.storyNotFound
        }
        let (accepted, pictures) = try await Self.accept(request)
        try await stories.save(
            id: id, story: accepted.story, owner: owner, source: "upload", resources: pictures,
            twineHTML: Self.twineHTML(accepted))
        return PublishedAnswer(id: id, warnings: accepted.warnings)
    }

    @Sendable func withdraw(_ request: Request, context: ProfileRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("id")
        let owner = context.profile.id
        try await stories.delete(id: id, owner: owner)
        return .noContent
    }

    @Sendable func addToLibrary(_ request: Request, context: TroveRequestContext) async throws -> HTTPResponse.Status {
        let stored = try await requireStory(context)
        let profile = try await context.session.requireProfile()
        try await stories.addToLibrary(storyID: stored.id, profileID: profile.id)
        return .noContent
    }

    @Sendable func removeFromLibrary(_ request: Request, context: TroveRequestContext) async throws -> HTTPResponse.Status {
        let stored = try await requireStory(context)
        if let profile = context.session.profile { try await stories.removeFromLibrary(storyID: stored.id, profileID: profile.id) }
        return .noContent
    }

    @Sendable func progress(_ request: Request, context: TroveRequestContext) async throws -> ProgressJSON {
        let stored = try await requireStory(context)
        var saved: (ReadingProgress, Date)?
        if let profile = context.session.profile { saved = try await stories.progress(storyID: stored.id, profileID: profile.id) }
        let progress = saved?.0 ?? ReadingProgress.start(of: stored.story)
        return ProgressJSON(
            chapter_id: progress.chapterID ?? "", path: progress.path, endings_found: progress.endingsFound,
            updated_at: saved?.1)
    }

    struct ProgressBody: Decodable {
        let chapter_id: String
        let path: [String]
    }

    @Sendable func saveProgress(_ request: Request, context: TroveRequestContext) async throws -> ProgressJSON {
        let stored = try await requireStory(context)
        let body = try await JSONBody.decode(ProgressBody.self, from: request)
        guard body.path.last == body.chapter_id else { throw StoryError.invalidPath("The path must end at 'chapter_id'.") }
        let profile = try await context.session.requireProfile()
        let current = try await stories.progress(storyID: stored.id, profileID: profile.id)?.0 ?? ReadingProgress.start(of: stored.story)
        let next = try current.moving(to: body.path, in: stored.story)
        let now = Date()
        try await stories.saveProgress(next, storyID: stored.id, profileID: profile.id, now: now)
        return ProgressJSON(chapter_id: body.chapter_id, path: next.path, endings_found: next.endingsFound, updated_at: now)
    }

    @Sendable func resource(_ request: Request, context: TroveRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let name = try context.parameters.require("name")
        guard let resource = try await stories.resource(storyID: id, name: name) else { throw StoryError.resourceNotFound }
        return UploadedPicture.response(contentType: resource.contentType, bytes: resource.bytes, cache: "public, max-age=86400")
    }

    @Sendable func schemaDocument(_ request: Request, context: TroveRequestContext) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/schema+json"
        headers[.cacheControl] = "public, max-age=3600"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: schema))
    }

    private func allProgress(_ profileID: String?) async throws -> [String: (ReadingProgress, Date)] {
        guard let profileID else { return [:] }
        return try await stories.allProgress(profileID: profileID)
    }

    private func libraryIDs(_ profileID: String?) async throws -> [String] {
        guard let profileID else { return [] }
        return try await stories.library(profileID: profileID)
    }

    private func requireStory(_ context: TroveRequestContext) async throws -> StoryRepository.Stored {
        let id = try context.parameters.require("id")
        guard let stored = try await stories.find(id: id) else { throw StoryError.storyNotFound }
        return stored
    }

    /// Publishing needs an account, not a guest profile: a story has an author who can come back to it.
    private func requireAuthor(_ context: TroveRequestContext) async throws -> String {
        guard let profile = context.session.profile, !profile.isGuest else { throw StoryError.signInRequired }
        return profile.id
    }

    /// What is kept to play a story step by step: only stories that keep variables need their Twine source.
    static func twineHTML(_ accepted: StoryIntake.Accepted) -> String? {
        accepted.needsInterpreter ? accepted.twine?.html() : nil
    }

    /// The body is the file: story.json (application/json), Twee (text/plain), or a zip of story.json with a
    /// resources/ folder of pictures (application/zip; the pictures are nil for the other two).
    static func accept(_ request: Request) async throws -> (StoryIntake.Accepted, [StoryRepository.Resource]?) {
        let type =
            (request.headers[.contentType] ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            ?? ""
        switch type {
        case "application/json", "text/plain", "text/x-twee", "text/twee", "text/html":
            let buffer = try await request.body.collect(upTo: StoryIntake.maximumBytes)
            let text = String(decoding: buffer.readableBytesView, as: UTF8.self)
            let format: StoryIntake.Format =
                switch type {
                case "application/json": .storyJSON
                case "text/html": .twineHTML
                default: .twee
                }
            return (try await offEventLoops { try StoryIntake.accept(text, format: format, work: TwineBudget.upload()) }, nil)
        case "application/zip", "application/x-zip-compressed":
            let buffer = try await request.body.collect(upTo: 20 << 20)
            let archive = Array(buffer.readableBytesView)
            return try await offEventLoops { try StoryArchive.read(archive) }
        default:
            throw APIError(
                .unsupportedMediaType, code: "unsupported_media_type",
                message:
                    "Send story.json as application/json, a Twee file as text/plain, a published Twine 2 story as text/html, or a zip of story.json and its pictures as application/zip."
            )
        }
    }
}

/// Catalog search: part of the title, author or description, any case and accents.
enum StorySearch {
    static func matches(_ story: StorySummary, query: String) -> Bool {
        let needle = fold(query)
        return [story.name, story.author ?? "", story.description ?? "", story.summary].contains { fold($0).contains(needle) }
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
