import MagneticPoetry
import Storage

/// The Magnetic Poetry part of the account export: own word sets and every poem with its board.
struct PoetryExportSection: ProfileDataSection {
    let wordSets: WordSetRepository
    let poems: PoemRepository
    let key = "poetry"

    struct Export: Encodable, Sendable {
        let wordSets: [WordSet]
        let poems: [PoemRepository.Poem]
    }

    func export(profileID: String) async throws -> any Encodable & Sendable {
        var full: [PoemRepository.Poem] = []
        for summary in try await poems.list(profileID: profileID) {
            if let poem = try await poems.find(id: summary.id, profileID: profileID) { full.append(poem) }
        }
        return Export(wordSets: try await wordSets.ownSets(profileID: profileID), poems: full)
    }
}
