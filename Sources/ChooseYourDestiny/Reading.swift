/// Where a reader is in a story: the chapters taken from the start, and the endings found so far.
public struct ReadingProgress: Sendable, Equatable {
    public var path: [String]
    public var endingsFound: [String]

    public var chapterID: String? { path.last }

    public init(path: [String], endingsFound: [String]) {
        self.path = path
        self.endingsFound = endingsFound
    }

    public static let maximumPathLength = 5000

    /// A story never opened: at its first chapter.
    public static func start(of story: Story) -> ReadingProgress {
        ReadingProgress(path: story.startChapter.map { [$0.id] } ?? [], endingsFound: [])
    }

    /// The progress after the reader went along `path` (a walk from the start along choices). Going back
    /// or rewinding is just a shorter path; endings found are never forgotten.
    public func moving(to path: [String], in story: Story) throws(StoryError) -> ReadingProgress {
        guard let start = story.startChapter, path.first == start.id else { throw .invalidPath("A path starts at the first chapter.") }
        guard path.count <= Self.maximumPathLength else { throw .invalidPath("The path is too long.") }
        let byID = Dictionary(story.chapters.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (from, to) in zip(path, path.dropFirst()) where !(byID[from]?.choices.contains { $0.chapterID == to } ?? false) {
            throw .invalidPath("No choice leads from chapter \"\(from)\" to \"\(to)\".")
        }
        var endings = endingsFound
        if let last = path.last, byID[last]?.isEnding == true, !endings.contains(last) { endings.append(last) }
        return ReadingProgress(path: path, endingsFound: endings)
    }
}

public enum StoryError: Error, Equatable, Sendable {
    case invalid([String])
    case unreadable(String)
    case storyNotFound
    case resourceNotFound
    case storyExists
    case invalidPath(String)
    case signInRequired
}
