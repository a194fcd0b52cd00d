/// A story drawn as a graph for its author: chapters in columns by how many choices it takes to reach
/// them from the start, choices as arrows, endings and unreachable chapters marked. Positions only; the
/// web layer draws it.
public struct StoryMap: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case start, chapter, ending, unreachable
    }

    public struct Node: Sendable, Equatable {
        public let id: String
        public let name: String
        public let kind: Kind
        public let column: Int
        public let row: Int
    }

    public struct Edge: Sendable, Equatable {
        public let from: String
        public let to: String
    }

    public let nodes: [Node]
    public let edges: [Edge]
    public let columns: Int
    public let rows: Int

    public init(_ story: Story) {
        var depth: [String: Int] = [:]
        if let start = story.startChapter {
            // Breadth first: a chapter's column is its shortest distance from the start.
            depth[start.id] = 0
            var queue = [start.id]
            var head = 0
            let byID = Dictionary(story.chapters.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            while head < queue.count {
                let id = queue[head]
                head += 1
                for choice in byID[id]?.choices ?? [] where byID[choice.chapterID] != nil && depth[choice.chapterID] == nil {
                    depth[choice.chapterID] = depth[id]! + 1
                    queue.append(choice.chapterID)
                }
            }
        }
        let lastColumn = (depth.values.max() ?? -1) + 1
        var rowsUsed: [Int: Int] = [:]
        var nodes: [Node] = []
        var seen = Set<String>()
        for chapter in story.chapters where seen.insert(chapter.id).inserted {
            let column = depth[chapter.id] ?? lastColumn
            let kind: Kind = depth[chapter.id] == nil ? .unreachable : chapter.isFirst ? .start : chapter.canEnd ? .ending : .chapter
            nodes.append(
                Node(
                    id: chapter.id, name: chapter.name.isEmpty ? chapter.id : chapter.name, kind: kind, column: column,
                    row: rowsUsed[column, default: 0]))
            rowsUsed[column, default: 0] += 1
        }
        let ids = Set(nodes.map(\.id))
        self.nodes = nodes
        self.edges = story.chapters.flatMap { chapter in
            chapter.choices.filter { ids.contains($0.chapterID) }.map { Edge(from: chapter.id, to: $0.chapterID) }
        }
        self.columns = (nodes.map(\.column).max() ?? -1) + 1
        self.rows = rowsUsed.values.max() ?? 0
    }
}
