import ArgumentParser

struct Trove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trove",
        abstract: "Five small apps in one server: Oblique Strategies, YogiYogini, Choose Your Destiny, Magnetic Poetry, City Roulette.",
        subcommands: [Serve.self, Config.self, Migrate.self, Import.self, Strategy.self, Stories.self, Backup.self, Restore.self],
        defaultSubcommand: nil
    )
}
