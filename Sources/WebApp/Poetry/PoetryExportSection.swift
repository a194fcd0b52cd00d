import Foundation
import MagneticPoetry
import SQLKit
import Storage

/// The Magnetic Poetry part of the account export: own word sets and every poem with its board.
struct PoetryExportSection: ProfileDataSection {
    let wordSets: WordSetRepository
    let poems: PoemRepository
    let key = "poetry"

    struct Export: Codable, Sendable {
        let wordSets: [WordSet]
        let poems: [PoemJSON]

        enum CodingKeys: String, CodingKey {
            case wordSets = "word_sets"
            case poems
        }
    }

    func export(profileID: String) async throws -> any Encodable & Sendable {
        var full: [PoemRepository.Poem] = []
        for summary in try await poems.list(profileID: profileID) {
            if let poem = try await poems.find(id: summary.id, profileID: profileID) { full.append(poem) }
        }
        return Export(wordSets: try await wordSets.ownSets(profileID: profileID), poems: full.map(PoemJSON.init))
    }

    /// Own word sets get new ids and their poems follow them; a poem is private here until published again.
    func importData(_ data: Data, profileID: String, on db: any SQLDatabase, report: inout ImportReport) async throws {
        let part = try JSONBody.decoder.decode(Export.self, from: data)
        let sets = WordSetRepository(database: db)
        let poems = PoemRepository(database: db)
        var ids: [String: String] = [:]
        for set in part.wordSets {
            ids[set.id] = try await sets.create(profileID: profileID, name: set.name, words: set.words).id
        }
        report.add("word_sets", ids.count)
        for poem in part.poems {
            guard var board = poem.board else { continue }
            if let id = ids[board.wordSetId] { board.wordSetId = id }
            _ = try await poems.create(profileID: profileID, title: poem.title, board: board, at: poem.updated_at)
            report.add("poems")
            if poem.has_background { report.skipped.append("The background picture of “\(poem.title)” is not in the export.") }
        }
    }
}
