import DatabaseDrivers
import ObliqueStrategies
import Storage

/// A small deck written for the tests (the real card texts are never committed).
public enum TestDeck {
    public static let ini = """
        [strategies]
        Edition 1=
            Honour thy error as a hidden intention
            Use an old idea
            Work at a different speed
        Edition 2=
            Honor thy error as a hidden intention
            Ask your body
            Émphasize the flaws
        Edition 3=
            Look at the order in which you do things
        Edition 4=
            Take a break
        Extra=
            Listen to the quiet voice
        """
}

extension TestDeck {
    /// Imports every section of the test deck (Editions 1–4 and Extra).
    @discardableResult
    public static func importAll(into database: Database) async throws -> StrategyImporter.Report {
        try await StrategyImporter(database: database.sql).importSections(try DeckFile.parse(ini))
    }
}
