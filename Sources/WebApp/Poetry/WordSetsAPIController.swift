import Hummingbird
import MagneticPoetry
import Storage

/// `/api/v1/poetry/wordsets`: the built-in sets and the profile's own.
struct WordSetsAPIController {
    let wordSets: WordSetRepository
    let poems: PoemRepository

    struct Body: Decodable {
        let name: String
        let words: [String]
        /// The set as the editing device opened it: what another device changed meanwhile is kept (`WordSet.edited`).
        let base: Base?
    }

    struct Base: Decodable {
        let name: String
        let words: [String]
    }

    /// `api`: the group at `/api/v1/poetry`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get("wordsets", use: list)
            .post("wordsets", use: create)
        api.withProfile("wordsets/{id}", otherwise: PoetryError.wordSetNotFound)
            .put(use: replace)
            .delete(use: delete)
    }

    @Sendable func list(_ request: Request, context: TroveRequestContext) async throws -> APIValue<[WordSet]> {
        var own: [WordSet] = []
        if let profile = context.session.profile { own = try await wordSets.ownSets(profileID: profile.id) }
        return APIValue(BuiltInWordSets.all + own)
    }

    @Sendable func create(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<APIValue<WordSet>> {
        let body = try await JSONBody.decode(Body.self, from: request)
        let checked = try PoetryText.wordSet(name: body.name, words: body.words)
        let profile = try await context.session.requireProfile()
        try await wordSets.requireFreeName(checked.name, profileID: profile.id)
        let set = try await wordSets.create(profileID: profile.id, name: checked.name, words: checked.words)
        return EditedResponse(status: .created, response: APIValue(set))
    }

    @Sendable func replace(_ request: Request, context: ProfileRequestContext) async throws -> APIValue<WordSet> {
        let id = try context.parameters.require("id")
        let body = try await JSONBody.decode(Body.self, from: request)
        let checked = try PoetryText.wordSet(name: body.name, words: body.words)
        let base = body.base.map { (name: $0.name, words: $0.words) }
        guard
            let set = try await wordSets.replace(
                id: id, profileID: context.profile.id, name: checked.name, words: checked.words, base: base)
        else { throw PoetryError.wordSetNotFound }
        return APIValue(set)
    }

    @Sendable func delete(_ request: Request, context: ProfileRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("id")
        let profile = context.profile
        guard try await wordSets.find(id: id, profileID: profile.id)?.builtIn == false else { throw PoetryError.wordSetNotFound }
        let users = try await poems.count(usingWordSet: id, profileID: profile.id)
        guard users == 0 else {
            throw APIError(
                .conflict, code: "word_set_in_use",
                message: "\(users) of your poems use this word set: switch them to another set or delete them first.")
        }
        _ = try await wordSets.delete(id: id, profileID: profile.id)
        return .noContent
    }
}
