import Hummingbird
import MagneticPoetry
import Storage

/// Rhymes, alliterations and syllable counts from the CMU Pronouncing Dictionary.
struct WordHelpersAPIController {
    let pronunciations: PronunciationRepository

    struct Words: Encodable {
        let word: String
        let words: [String]
    }

    struct Syllables: Encodable {
        let syllables: [String: Int?]
    }

    func addRoutes(to api: APIRoutes) {
        api.get("/api/v1/poetry/rhymes") { request, _ in
            let word = try requireWord(request)
            try await requireImported()
            return JSONResponse.make(Words(word: word, words: try await pronunciations.rhymes(of: word) ?? []))
        }
        .get("/api/v1/poetry/alliterations") { request, _ in
            let word = try requireWord(request)
            try await requireImported()
            return JSONResponse.make(Words(word: word, words: try await pronunciations.alliterations(of: word) ?? []))
        }
        .get("/api/v1/poetry/syllables") { request, _ in
            try await requireImported()
            let words = (request.queryString("words") ?? "").split(separator: ",").map(String.init).filter { !$0.isEmpty }
            guard words.count <= 500 else { throw APIError.badRequest("Ask for at most 500 words at once.") }
            let found = try await pronunciations.syllables(of: words)
            var result: [String: Int?] = [:]
            for word in words { result[word] = found[word.lowercased()] }
            return JSONResponse.make(Syllables(syllables: result))
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
