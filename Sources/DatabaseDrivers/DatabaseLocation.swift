import Foundation

/// Where the data lives, parsed from `--database` / `DATABASE_URL`.
public enum DatabaseLocation: Sendable, Equatable {
    case sqlite(path: String)
    case postgres(url: String)

    public static let defaultSQLitePath = "./data/trove.sqlite"

    /// A plain path or `sqlite:PATH` means SQLite; `postgres://` or `postgresql://` means PostgreSQL.
    public init(parsing text: String) throws(DatabaseConfigurationError) {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
                throw .malformedURL(text, "expected postgres://user:password@host:port/database")
            }
            self = .postgres(url: text)
        } else if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count)).replacingOccurrences(of: "//", with: "", options: .anchored)
            guard !path.isEmpty else { throw .malformedURL(text, "expected sqlite:PATH, for example sqlite:./data/trove.sqlite") }
            self = .sqlite(path: path)
        } else if text.contains("://") {
            throw .malformedURL(text, "use a file path, sqlite:PATH or postgres://user:password@host:port/database")
        } else {
            guard !text.isEmpty else { throw .malformedURL(text, "the database location is empty") }
            self = .sqlite(path: text)
        }
    }

    public var kind: DatabaseKind {
        switch self {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    /// The location with any password hidden, for logs and messages.
    public var redacted: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://…" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "postgres://…"
        }
    }
}

public enum DatabaseKind: String, Sendable, Codable, CaseIterable {
    case sqlite
    case postgres
}

/// Bad configuration, described in one line that says what and how to fix it.
public enum DatabaseConfigurationError: Error, CustomStringConvertible, Equatable {
    case malformedURL(String, String)
    case unwritableFolder(String)
    case cannotOpen(String, String)
    case unreachable(String, String)

    public var description: String {
        switch self {
        case .malformedURL(let text, let hint):
            "Malformed database location '\(text)': \(hint)."
        case .unwritableFolder(let path):
            "Cannot create or write the database folder '\(path)': choose a writable path with --database or DATABASE_URL."
        case .cannotOpen(let path, let reason):
            "Cannot open the SQLite database '\(path)' (\(reason)): check the path and its permissions, or choose another with --database."
        case .unreachable(let location, let reason):
            "Cannot reach the PostgreSQL database '\(location)' (\(reason)): check that the server runs and the URL, user and password are right."
        }
    }
}
