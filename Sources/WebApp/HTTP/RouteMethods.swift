import Synchronization

/// Which methods each route answers, so that a request for a path that exists with another method gets
/// 405 and an `Allow` header rather than 404 (Hummingbird's router answers 404 for both).
///
/// A path is matched as the router matches it: segment by segment, a literal segment before a `{capture}`,
/// a capture before `**`. Filled once the router has all its routes (`load`).
final class RouteMethods: Sendable {
    private enum Segment: Equatable {
        case literal(Substring)
        case capture
        case rest

        var priority: Int {
            switch self {
            case .literal: 3
            case .capture: 2
            case .rest: 1
            }
        }
    }

    private struct Route {
        let segments: [Segment]
        var methods: Set<String>
    }

    private let routes = Mutex<[Route]>([])

    /// `paths` as the router describes them ("/api/v1/poetry/poems/{id}", "/static/**"), each with a method.
    func load(_ paths: [(path: String, method: String)]) {
        var table: [Route] = []
        for (path, method) in paths {
            let segments = Self.segments(of: path)
            if let index = table.firstIndex(where: { $0.segments == segments }) {
                table[index].methods.insert(method)
            } else {
                table.append(Route(segments: segments, methods: [method]))
            }
        }
        // The router answers HEAD wherever it answers GET.
        for index in table.indices where table[index].methods.contains("GET") { table[index].methods.insert("HEAD") }
        routes.withLock { $0 = table }
    }

    /// The methods the route for `path` answers, sorted; nil when no route has this path.
    func allowed(for path: String) -> [String]? {
        let requested = path.split(separator: "/", omittingEmptySubsequences: true)
        return routes.withLock { table in
            var best: (route: Route, rank: [Int])?
            for route in table {
                guard let rank = Self.rank(route.segments, matching: requested) else { continue }
                if best == nil || best!.rank.lexicographicallyPrecedes(rank) {
                    best = (route, rank)
                }
            }
            return best.map { $0.route.methods.sorted() }
        }
    }

    /// The priority of each segment of `route` when it matches `path`, or nil when it does not match.
    private static func rank(_ route: [Segment], matching path: [Substring]) -> [Int]? {
        var rank: [Int] = []
        for (index, segment) in route.enumerated() {
            switch segment {
            case .rest:
                guard index < path.count else { return nil }
                return rank + [segment.priority]
            case .literal(let text):
                guard index < path.count, path[index] == text else { return nil }
            case .capture:
                guard index < path.count else { return nil }
            }
            rank.append(segment.priority)
        }
        return route.count == path.count ? rank : nil
    }

    private static func segments(of path: String) -> [Segment] {
        path.split(separator: "/", omittingEmptySubsequences: true).map { part in
            if part == "**" { return .rest }
            if part == "*" || part.hasPrefix(":") || (part.hasPrefix("{") && part.hasSuffix("}")) { return .capture }
            return .literal(part)
        }
    }
}
