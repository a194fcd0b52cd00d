import ArgumentParser

/// `trove import …`: loads the data sets `make run` fetched into the database.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load a data set into the database.",
        subcommands: [ImportStrategies.self, ImportPronunciations.self, ImportCities.self, ImportStory.self, ImportBasemap.self]
    )
}
