/// A branching story in the original app's format (`story.json`), with Trove's optional additions
/// (author, description, language, a chapter's video). See docs/STORY_FORMAT.md.
public struct Story: Sendable, Equatable {
    public var id: String
    public var name: String
    public var picPath: String?
    public var rating: String?
    public var summary: String
    public var author: String?
    public var description: String?
    public var language: String?
    public var chapters: [Chapter]

    public init(
        id: String, name: String, picPath: String? = nil, rating: String? = nil, summary: String = "", author: String? = nil,
        description: String? = nil, language: String? = nil, chapters: [Chapter]
    ) {
        self.id = id
        self.name = name
        self.picPath = picPath
        self.rating = rating
        self.summary = summary
        self.author = author
        self.description = description
        self.language = language
        self.chapters = chapters
    }

    public var startChapter: Chapter? { chapters.first(where: \.isFirst) }

    public func chapter(id: String) -> Chapter? { chapters.first { $0.id == id } }
}

public struct Chapter: Sendable, Equatable {
    public var id: String
    public var name: String
    public var isFirst: Bool
    /// Paragraphs are separated by blank lines.
    public var text: String
    public var picPath: String?
    public var videoURL: String?
    /// No choices: an ending.
    public var choices: [Choice]
    /// A Twine passage whose choices all show only under conditions, so that on some paths none shows
    /// (`TwineBranches`): the story can end here though the chapter lists choices.
    public var endsOnSomePaths: Bool

    public init(
        id: String, name: String, isFirst: Bool = false, text: String, picPath: String? = nil, videoURL: String? = nil,
        choices: [Choice] = [], endsOnSomePaths: Bool = false
    ) {
        self.id = id
        self.name = name
        self.isFirst = isFirst
        self.text = text
        self.picPath = picPath
        self.videoURL = videoURL
        self.choices = choices
        self.endsOnSomePaths = endsOnSomePaths
    }

    public var isEnding: Bool { choices.isEmpty }

    /// The story can end here, on every path (an ending) or on some (`endsOnSomePaths`).
    public var canEnd: Bool { choices.isEmpty || endsOnSomePaths }

    public var paragraphs: [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n")
            .components(separatedBy: "\n\n")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }
}

public struct Choice: Sendable, Equatable {
    public var chapterID: String
    public var text: String

    public init(chapterID: String, text: String) {
        self.chapterID = chapterID
        self.text = text
    }
}
