/// The five apps Trove hosts, as the home page lists them.
struct AppEntry: Sendable {
    let slug: String
    let name: String
    let description: String
}

enum AppDirectory {
    static let apps: [AppEntry] = [
        AppEntry(slug: "strategies", name: "Oblique Strategies", description: "Draw one of Eno and Schmidt's cards to break a creative deadlock."),
        AppEntry(slug: "yoga", name: "YogiYogini", description: "A yoga instructor's roster, check-in, live class and session history."),
        AppEntry(slug: "stories", name: "Choose Your Destiny", description: "Read branching stories and choose where they go."),
        AppEntry(slug: "poetry", name: "Magnetic Poetry", description: "Drag word magnets into a poem."),
        AppEntry(slug: "cities", name: "City Roulette", description: "Collect the world's cities, with weather and Wikipedia."),
    ]
}
