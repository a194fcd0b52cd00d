import ArgumentParser
import Foundation

/// `trove config`: the settings `trove serve` would run with (the same flags), where each comes from, secrets hidden.
struct Config: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the settings trove serve would run with, and where each comes from (secrets hidden).",
        discussion: """
            Takes the flags of trove serve. Each setting comes from its flag, else the environment, else the settings \
            file (--config or $TROVE_CONFIG: NAME=value lines), else its default. Nothing is started or written.
            """
    )

    @OptionGroup var options: ServeOptions

    func run() async throws {
        let (_, _, shown) = try options.resolve()
        let width = shown.map(\.name.count).max() ?? 0
        for setting in shown {
            let value = setting.value.map { Self.shown($0, name: setting.name) } ?? "(not set)"
            print("\(setting.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(value)  [\(setting.origin.description)]")
        }
    }

    /// A key or token is shown as set, never as its value; a database URL keeps everything but its password.
    static func shown(_ value: String, name: String) -> String {
        guard Settings.known[name] == true else { return value }
        guard name == "DATABASE_URL" else { return "(set, hidden)" }
        guard var url = URLComponents(string: value), url.password != nil else { return value }
        url.password = "hidden"
        return url.string ?? "(set, hidden)"
    }
}
