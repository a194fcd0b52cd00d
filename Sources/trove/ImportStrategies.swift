import ArgumentParser
import DatabaseDrivers
import Foundation
import Logging
import ObliqueStrategies
import Storage

struct ImportStrategies: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strategies",
        abstract: "Import the Oblique Strategies deck from the oblique package's strategies.ini (idempotent)."
    )

    static let defaultFile = "vendor/oblique/oblique/strategies.ini"

    @Option(help: "The strategies.ini file. Default: \(defaultFile) (fetched by `make data`).")
    var from: String?

    @Option(help: "Sections to import besides Editions 1–4: 'all', or names separated by commas (e.g. \"Extra,The Book of Five Rings\").")
    var sections: String?

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let path = from ?? Self.defaultFile
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw CleanExit.failure("Cannot read the deck file '\(path)': run `make data` to fetch it, or pass --from PATH.")
        }
        let parsed: [DeckSection]
        do {
            parsed = try DeckFile.parse(text)
        } catch {
            throw CleanExit.failure("The deck file '\(path)' is malformed: \(error.description)")
        }
        let chosen = try choose(from: parsed)
        let db = try await CommandDatabase.open(database)
        do {
            let report = try await StrategyImporter(database: db.sql).importSections(chosen)
            await db.shutdown()
            print(
                "Imported \(report.sections.joined(separator: ", ")): \(report.inserted) new, \(report.updated) updated, "
                    + "\(report.retired) retired, \(report.unchanged) unchanged.")
        } catch {
            await db.shutdown()
            throw CleanExit.failure("Import failed: \(error)")
        }
    }

    private func choose(from parsed: [DeckSection]) throws -> [DeckSection] {
        let editions = parsed.filter { ($0.editionNumber ?? 0) >= 1 && ($0.editionNumber ?? 0) <= 4 }
        guard let sections else { return editions }
        if sections == "all" { return parsed }
        let wanted = Set(sections.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        let unknown = wanted.subtracting(parsed.map(\.name))
        guard unknown.isEmpty else {
            throw CleanExit.failure(
                "Unknown section(s) \(unknown.sorted().joined(separator: ", ")); the file has: \(parsed.map(\.name).joined(separator: ", "))."
            )
        }
        return editions + parsed.filter { wanted.contains($0.name) && !editions.contains($0) }
    }
}
