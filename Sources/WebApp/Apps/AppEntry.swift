/// An app as the home page lists it (`TroveApp.entry`).
struct AppEntry: Hashable, Sendable {
    /// Its first path segment: `/poetry`, `/api/v1/poetry`.
    let slug: String
    let name: String
    let description: String
}
