import ArgumentParser
import Foundation
import Storage

/// `trove import basemap FILE`: the land, sea and borders City Roulette draws when map tiles cannot be fetched,
/// as `scripts/make-basemap.py` converts them from Natural Earth (`make data` does it).
struct ImportBasemap: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "basemap",
        abstract: "Import the offline basemap for City Roulette's map (made by scripts/make-basemap.py)."
    )

    static let defaultFile = "vendor/basemap/basemap.json"
    static let format = "trove-basemap-1"

    @Argument(help: "The basemap JSON file. Default: \(defaultFile) (made by `make data`).")
    var path: String?

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let file = path ?? Self.defaultFile
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CleanExit.failure("Cannot read the basemap '\(file)': run `make data` to make it, or pass its path.")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["format"] as? String == Self.format
        else {
            throw CleanExit.failure("'\(file)' is not a Trove basemap (a JSON object with \"format\": \"\(Self.format)\").")
        }
        let db = try await CommandDatabase.open(database)
        do {
            try await BasemapRepository(database: db.sql).replace(with: String(decoding: data, as: UTF8.self))
            await db.shutdown()
        } catch {
            await db.shutdown()
            throw CleanExit.failure("Import failed: \(error)")
        }
        print("Imported the basemap (\(data.count / 1024) KB).")
    }
}
