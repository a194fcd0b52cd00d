import SQLKit

/// A data set a `trove import …` command loads (the deck, the pronunciations, the cities, the basemap), known by a
/// table the import fills: the server names each one missing when it starts (docs/DEPLOY.md lists the imports).
public struct ImportedDataSet: Sendable, Equatable {
    /// What it is, for a person: "the offline basemap".
    public let name: String
    /// The command that loads it: "trove import basemap".
    public let command: String
    /// What is missing without it, said after the name.
    public let without: String
    /// A table that holds a row once it is imported.
    public let table: String

    public init(name: String, command: String, without: String, table: String) {
        self.name = name
        self.command = command
        self.without = without
        self.table = table
    }

    public func isImported(in database: any SQLDatabase) async throws -> Bool {
        try await database.select().column(SQLLiteral.numeric("1"), as: "found").from(table).limit(1).first() != nil
    }
}
