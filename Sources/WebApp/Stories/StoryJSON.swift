import ChooseYourDestiny
import Foundation
import Storage

/// A story in the catalog or a library.
struct StorySummaryJSON: Encodable {
    /// How far the visitor has read: the card's "Continue".
    struct ProgressSummary: Encodable {
        let chapter_id: String
        let chapter_name: String
        let steps: Int
        let endings_found: Int
        let finished: Bool
    }

    /// The house's byline: only for stories no account owns.
    static let houseAuthor = "Trove"

    let id: String
    let name: String
    let summary: String
    /// The byline: the publishing account's username, or the house's for stories with no owner.
    let author: String
    /// The name written in the story file when it differs from the byline, shown beside it.
    @Nullable var pen_name: String?
    /// The account whose story it is (nil: the house's), for the authors page and the catalog's filter.
    @Nullable var author_account: String?
    /// Where it comes from: "house" (Trove's own), "upload" (an account published it) or "github" (an author's repository).
    let source: String
    @Nullable var description: String?
    @Nullable var language: String?
    @Nullable var rating: String?
    @Nullable var cover_url: String?
    let chapter_count: Int
    let ending_count: Int
    let in_library: Bool
    let owned: Bool
    let updated_at: Date
    @Nullable var progress: ProgressSummary?

    init(_ listed: StoryRepository.Listed, inLibrary: Bool, profileID: String?, progress: ProgressSummary? = nil) {
        let story = listed.summary
        id = listed.id
        name = story.name
        summary = story.summary
        let byline = Self.byline(listed)
        author = byline.author
        pen_name = byline.penName
        author_account = listed.ownerName
        source = listed.source == "github" ? "github" : listed.ownerName == nil ? "house" : "upload"
        description = story.description
        language = story.language
        rating = story.rating
        cover_url = story.picPath.map { StoryJSON.pictureURL($0, storyID: listed.id) }
        chapter_count = story.chapterCount
        ending_count = story.endingCount
        in_library = inLibrary
        owned = profileID != nil && listed.ownerProfileID == profileID
        updated_at = listed.updatedAt
        self.progress = progress
    }

    /// How far `reading` has come in `story`; nil when its place is not a chapter of the story.
    static func progress(_ reading: ReadingProgress, in story: Story) -> ProgressSummary? {
        guard let chapterID = reading.chapterID, let chapter = story.chapter(id: chapterID) else { return nil }
        return ProgressSummary(
            chapter_id: chapterID, chapter_name: chapter.name, steps: reading.path.count - 1,
            endings_found: reading.endingsFound.count, finished: chapter.isEnding)
    }

    /// An account's story is always under its username (a pen name in the file goes beside it); the house
    /// name belongs to the stories no account owns, so no upload can pass for the house's.
    static func byline(_ listed: StoryRepository.Listed) -> (author: String, penName: String?) {
        let written = listed.summary.author?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let account = listed.ownerName else { return (written.flatMap { $0.isEmpty ? nil : $0 } ?? houseAuthor, nil) }
        guard let written, !written.isEmpty, written.lowercased() != account else { return (account, nil) }
        return (account, written)
    }
}

/// A whole story for the reader.
struct StoryJSON: APIAnswer {
    struct ChapterJSON: Encodable {
        struct ChoiceJSON: Encodable {
            let chapter_id: String
            let text: String
        }

        let id: String
        let name: String
        let text: String
        let paragraphs: [String]
        @Nullable var picture_url: String?
        @Nullable var video_url: String?
        let is_ending: Bool
        let choices: [ChoiceJSON]
    }

    let summary: StorySummaryJSON
    /// Read it step by step (`/api/v1/stories/{id}/play`): the story keeps variables.
    let interactive: Bool
    let start_chapter_id: String
    let chapters: [ChapterJSON]
    let warnings: [String]

    init(_ stored: StoryRepository.Stored, inLibrary: Bool, profileID: String?) {
        summary = StorySummaryJSON(StoryRepository.Listed(stored), inLibrary: inLibrary, profileID: profileID)
        interactive = stored.interactive
        start_chapter_id = stored.story.startChapter?.id ?? ""
        chapters = stored.story.chapters.map { chapter in
            ChapterJSON(
                id: chapter.id, name: chapter.name, text: chapter.text, paragraphs: chapter.paragraphs,
                picture_url: chapter.picPath.map { Self.pictureURL($0, storyID: stored.id) }, video_url: chapter.videoURL,
                is_ending: chapter.canEnd, choices: chapter.choices.map { .init(chapter_id: $0.chapterID, text: $0.text) }
            )
        }
        warnings = StoryValidation(stored.story).warnings
    }

    func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(interactive, forKey: .interactive)
        try container.encode(start_chapter_id, forKey: .start_chapter_id)
        try container.encode(chapters, forKey: .chapters)
        try container.encode(warnings, forKey: .warnings)
    }

    enum CodingKeys: String, CodingKey { case interactive, start_chapter_id, chapters, warnings }

    /// An absolute address stays as it is; "resources/pub.jpg" is served from the story's resources.
    static func pictureURL(_ path: String, storyID: String) -> String {
        if path.hasPrefix("https://") || path.hasPrefix("http://") { return path }
        let name = path.hasPrefix("resources/") ? String(path.dropFirst("resources/".count)) : path
        let encoded =
            name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? name
        return "/api/v1/stories/\(storyID)/resources/\(encoded)"
    }
}

struct ProgressJSON: APIAnswer {
    let chapter_id: String
    let path: [String]
    let endings_found: [String]
    @Nullable var updated_at: Date?
}
