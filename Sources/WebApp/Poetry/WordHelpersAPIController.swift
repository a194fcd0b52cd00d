import Hummingbird
import MagneticPoetry
import Storage

/// Rhymes, alliterations and syllable counts from the CMU Pronouncing Dictionary.
struct WordHelpersAPIController {
    let pronunciations: PronunciationRepository

    struct Words: APIAnswer {
        let word: String
        let words: [String]
    }

    struct Syllables: APIAnswer {
        let syllables: [String: Int?]
    }

    /// `api`: the group at `/api/v1/poetry`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get("rhymes") { request, _ in
            let word = try requireWord(request)
            try await requireImported()
            return Words(word: word, words: try await pronunciations.rhymes(of: word) ?? [])
        }
        .get("alliterations") { request, _ in
            let word = try requireWord(request)
            try await requireImported()
            return Words(word: word, words: try await pronunciations.alliterations(of: word) ?? [])
        }
        .get("syllables") { request, _ in
            try await requireImported()
            let words = (request.queryString("words") ?? "").split(separator: ",").map(String.init).filter { !$0.isEmpty }
            guard words.count <= 500 else { throw APIError.badRequest("Ask for at most 500 words at once.") }
            let found = try await pronunciations.syllables(of: words)
            var result: [String: Int?] = [:]
            for word in words { result[word] = found[word.lowercased()] }
            return Syllables(syllables: result)
        }
    }

    private func requireWord(_ request: Request) throws -> String {
        guard let word = request.queryString("word")?.trimmingCharacters(in: .whitespaces), (1...40).contains(word.count) else {
            throw APIError.badRequest("Give a word of 1 to 40 characters: ?word=moon")
        }
        return word
    }

    private func requireImported() async throws {
        guard try await pronunciations.isImported() else { throw PoetryError.pronunciationsNotImported }
    }
}
