/// The five apps Trove hosts, as the home page lists them.
struct AppEntry: Hashable, Sendable {
    let slug: String
    let name: String
    let description: String
}

enum AppDirectory {
    static let apps: [AppEntry] = [
        AppEntry(slug: "strategies", name: "Oblique Strategies", description: "Draw one of Eno and Schmidt's cards to get unstuck."),
        AppEntry(slug: "yoga", name: "YogiYogini", description: "Your students, your classes, where and who came."),
        AppEntry(slug: "stories", name: "Choose Your Destiny", description: "Stories where every choice is yours."),
        AppEntry(slug: "poetry", name: "Magnetic Poetry", description: "Drag word magnets into a poem."),
        AppEntry(slug: "cities", name: "City Roulette", description: "Collect the world's cities, with their weather."),
    ]

    /// The app a path belongs to ("/poetry/p/x" → Magnetic Poetry), or nil for Trove's own pages.
    static func app(forPath path: String) -> AppEntry? {
        apps.first { path == "/\($0.slug)" || path.hasPrefix("/\($0.slug)/") }
    }
}
