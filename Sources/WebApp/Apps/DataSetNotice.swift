import Logging
import SQLKit
import Storage

/// At start, a warning for each data set an app reads that is not imported, with the command that loads it: a
/// server set up from docs/DEPLOY.md with one import left out says so, rather than showing a page with less on it.
enum DataSetNotice {
    static func missing(_ sets: [ImportedDataSet], database: any SQLDatabase) async -> [ImportedDataSet] {
        var missing: [ImportedDataSet] = []
        for set in sets where (try? await set.isImported(in: database)) == false { missing.append(set) }
        return missing
    }

    static func message(_ set: ImportedDataSet) -> String {
        "Not imported: \(set.name), so \(set.without). Run `\(set.command)` (docs/DEPLOY.md)."
    }

    static func log(_ sets: [ImportedDataSet], database: any SQLDatabase, logger: Logger) async {
        for set in await missing(sets, database: database) { logger.warning("\(message(set))") }
    }
}
