/// What a catalog card shows of a story, worked out once when the story is saved and stored beside it, so a catalog
/// reads a few columns per story instead of parsing and walking every story.
public struct StorySummary: Sendable, Equatable {
    public var name: String
    public var summary: String
    public var author: String?
    public var description: String?
    public var language: String?
    public var rating: String?
    public var picPath: String?
    public var chapterCount: Int
    /// Endings a reader can reach: an ending no choice leads to is not one to find.
    public var endingCount: Int

    public init(
        name: String, summary: String, author: String?, description: String?, language: String?, rating: String?, picPath: String?,
        chapterCount: Int, endingCount: Int
    ) {
        self.name = name
        self.summary = summary
        self.author = author
        self.description = description
        self.language = language
        self.rating = rating
        self.picPath = picPath
        self.chapterCount = chapterCount
        self.endingCount = endingCount
    }

    public init(_ story: Story) {
        let reachable = story.startChapter.map { StoryValidation.reachable(from: $0.id, in: story) } ?? []
        self.init(
            name: story.name, summary: story.summary, author: story.author, description: story.description, language: story.language,
            rating: story.rating, picPath: story.picPath, chapterCount: story.chapters.count,
            endingCount: story.chapters.filter { $0.canEnd && reachable.contains($0.id) }.count)
    }
}
