import Foundation
import Hummingbird
import MagneticPoetry
import Pictures
import Storage

/// `/api/v1/poetry/poems`: a profile's poems, saved whole, with their backgrounds and public links.
struct PoemsAPIController {
    let poems: PoemRepository
    let wordSets: WordSetRepository

    struct CreateBody: Decodable {
        let title: String?
        let board: Board
    }

    struct SaveBody: JSONReadable {
        let version: Int
        let title: String?
        let board: Board

        init(reading reader: inout JSONReader) throws(JSONReader.GiveUp) {
            var version: Int?
            var title: String??
            var board: Board?
            try reader.object { reader, key throws(JSONReader.GiveUp) in
                switch key {
                case "version": try JSONReader.once(&version, try reader.integer())
                case "title": try JSONReader.once(&title, try reader.null() ? nil : try reader.string())
                case "board": try JSONReader.once(&board, try Board(reading: &reader))
                default: try reader.skip()
                }
            }
            guard let version, let board else { throw JSONReader.GiveUp() }
            self.version = version
            self.title = title ?? nil
            self.board = board
        }
    }

    /// `api`: the group at `/api/v1/poetry`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get("poems", use: list)
            .post("poems", use: create)
            .get("published/{publicId}", use: published)
            .get("published/{publicId}/background", use: publishedBackground)
        api.withProfile("poems/{id}", otherwise: PoetryError.poemNotFound)
            .get(use: one)
            .put(use: save)
            .delete(use: delete)
            .post("background", use: setBackground)
            .delete("background", use: removeBackground)
            .post("publish", use: publish)
            .delete("publish", use: unpublish)
        api.withProfile("poems/{id}/background", otherwise: PoetryError.backgroundNotFound)
            .get(use: background)
    }

    @Sendable func list(_ request: Request, context: TroveRequestContext) async throws -> APIValue<[PoemJSON]> {
        guard let profile = context.session.profile else { return APIValue([]) }
        return APIValue(try await poems.list(profileID: profile.id).map(PoemJSON.init))
    }

    @Sendable func create(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<PoemJSON> {
        let body = try await JSONBody.decode(CreateBody.self, from: request)
        let title = try Self.title(body.title)
        let profile = try await context.session.requireProfile()
        let board = try await validated(body.board, profileID: profile.id)
        return EditedResponse(
            status: .created,
            response: PoemJSON(try await poems.create(profileID: profile.id, title: title, board: board, boardJSON: board.jsonText)))
    }

    @Sendable func one(_ request: Request, context: ProfileRequestContext) async throws -> StoredPoemAnswer {
        let id = try context.parameters.require("id")
        guard let stored = try await poems.findStored(id: id, profileID: context.profile.id) else { throw PoetryError.poemNotFound }
        return StoredPoemAnswer(poem: stored.poem, boardJSON: stored.boardJSON)
    }

    @Sendable func save(_ request: Request, context: ProfileRequestContext) async throws -> StoredPoemAnswer {
        let id = try context.parameters.require("id")
        let body = try await JSONBody.decode(SaveBody.self, from: request)
        let title = try Self.title(body.title)
        let profile = context.profile
        let board = try await validated(body.board, profileID: profile.id)
        guard
            let saved = try await poems.save(
                id: id, profileID: profile.id, version: body.version, title: title, board: board, boardJSON: board.jsonText)
        else {
            throw PoetryError.poemNotFound
        }
        return StoredPoemAnswer(poem: saved.poem, boardJSON: saved.boardJSON)
    }

    @Sendable func delete(_ request: Request, context: ProfileRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("id")
        guard try await poems.delete(id: id, profileID: context.profile.id) else { throw PoetryError.poemNotFound }
        return .noContent
    }

    @Sendable func setBackground(_ request: Request, context: ProfileRequestContext) async throws -> EditedResponse<PoemJSON> {
        let id = try context.parameters.require("id")
        guard let type = request.headers[.contentType]?.lowercased(), type.hasPrefix("image/") else {
            throw APIError(
                .unsupportedMediaType, code: "unsupported_media_type",
                message: "Send the picture itself as the body, with its image type (JPEG, PNG, WebP or GIF) in Content-Type.")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: ImageKind.maximumBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, code: "body_too_large", message: "A background picture can be at most 10 MB.")
        }
        let bytes = Array(buffer.readableBytesView)
        guard let kind = ImageKind(sniffing: bytes) else { throw PoetryError.notAnImage }
        let profile = context.profile
        guard try await poems.setBackground(poemID: id, profileID: profile.id, kind: kind, bytes: bytes),
            let poem = try await poems.find(id: id, profileID: profile.id)
        else { throw PoetryError.poemNotFound }
        return EditedResponse(status: .created, response: PoemJSON(poem))
    }

    @Sendable func background(_ request: Request, context: ProfileRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let picture = try await poems.background(poemID: id, profileID: context.profile.id) else {
            throw PoetryError.backgroundNotFound
        }
        return Self.image(picture, cache: "private, no-cache")
    }

    @Sendable func removeBackground(_ request: Request, context: ProfileRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("id")
        guard try await poems.removeBackground(poemID: id, profileID: context.profile.id) else { throw PoetryError.poemNotFound }
        return .noContent
    }

    @Sendable func publish(_ request: Request, context: ProfileRequestContext) async throws -> PoemJSON {
        let id = try context.parameters.require("id")
        let profile = context.profile
        guard try await poems.publish(id: id, profileID: profile.id) != nil,
            let poem = try await poems.find(id: id, profileID: profile.id)
        else { throw PoetryError.poemNotFound }
        return PoemJSON(poem)
    }

    @Sendable func unpublish(_ request: Request, context: ProfileRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("id")
        guard try await poems.unpublish(id: id, profileID: context.profile.id) else { throw PoetryError.poemNotFound }
        return .noContent
    }

    struct PublishedBody: APIAnswer {
        let title: String
        let board: Board?
        let has_background: Bool
    }

    @Sendable func published(_ request: Request, context: TroveRequestContext) async throws -> PublishedBody {
        guard let found = try await poems.published(publicId: try context.parameters.require("publicId")) else {
            throw PoetryError.poemNotFound
        }
        return PublishedBody(title: found.poem.title, board: found.poem.board, has_background: found.poem.hasBackground)
    }

    @Sendable func publishedBackground(_ request: Request, context: TroveRequestContext) async throws -> Response {
        guard let found = try await poems.published(publicId: try context.parameters.require("publicId")),
            let picture = try await poems.background(poemID: found.poem.id, profileID: found.profileID)
        else { throw PoetryError.backgroundNotFound }
        return Self.image(picture, cache: "public, no-cache")
    }

    // MARK: Helpers

    private func validated(_ board: Board, profileID: String) async throws -> Board {
        guard let set = try await wordSets.find(id: board.wordSetId, profileID: profileID) else {
            throw PoetryError.invalid("The word set '\(board.wordSetId.prefix(40))' does not exist.")
        }
        return try board.validated(against: set)
    }

    static func title(_ text: String?) throws(PoetryError) -> String {
        let title = PoetryText.trimmed(text ?? "")
        guard title.count <= 100 else { throw .invalid("A title has at most 100 characters.") }
        return title.isEmpty ? PoetryText.untitled : title
    }

    static func image(_ picture: (contentType: String, bytes: Data), cache: String) -> Response {
        UploadedPicture.response(contentType: picture.contentType, bytes: picture.bytes, cache: cache)
    }
}

/// A poem with its board as stored. The board was validated and encoded when it was saved, so a read
/// sends those bytes on instead of decoding and encoding them again (half the time of a read).
struct StoredPoemAnswer: JSONWritable, APIAnswer {
    let poem: PoemRepository.Poem
    let boardJSON: String

    /// As JSONResponse's encoder writes a `PoemJSON` (sorted keys, ISO 8601 dates).
    func write(to writer: inout JSONWriter) {
        writer.object { w in
            w.key("board")
            w.raw(boardJSON)
            w.key("has_background")
            w.bool(poem.hasBackground)
            w.key("id")
            w.string(poem.id)
            if let publicId = poem.publicId {
                w.key("public_id")
                w.string(publicId)
            }
            w.key("title")
            w.string(poem.title)
            w.key("updated_at")
            w.date(poem.updatedAt)
            w.key("version")
            w.integer(poem.version)
        }
    }

    func encode(to encoder: any Encoder) throws {
        let board = try JSONDecoder().decode(Board.self, from: Data(boardJSON.utf8))
        try PoemJSON(poem.with(board: board)).encode(to: encoder)
    }
}
