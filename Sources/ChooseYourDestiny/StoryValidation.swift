/// What must hold of a story before anyone can read it, with messages that name the chapter.
/// Errors refuse the story; warnings (chapters nothing leads to) are reported and accepted.
public struct StoryValidation: Sendable, Equatable {
    public var errors: [String] = []
    public var warnings: [String] = []

    public var isValid: Bool { errors.isEmpty }

    /// Documented in docs/STORY_FORMAT.md.
    public enum Limits {
        public static let chapters = 1000
        public static let choicesPerChapter = 20
        public static let chapterText = 20_000
        public static let nameLength = 200
        public static let choiceText = 500
        public static let summaryLength = 2000
    }

    public init(_ story: Story) {
        if story.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { errors.append("The story has no name.") }
        if story.name.count > Limits.nameLength { errors.append("The story's name is longer than \(Limits.nameLength) characters.") }
        if story.summary.count > Limits.summaryLength { errors.append("The summary is longer than \(Limits.summaryLength) characters.") }
        if story.chapters.isEmpty {
            errors.append("The story has no chapters.")
            return
        }
        if story.chapters.count > Limits.chapters {
            errors.append("The story has \(story.chapters.count) chapters; at most \(Limits.chapters) are allowed.")
        }

        var seen = Set<String>()
        for chapter in story.chapters where !seen.insert(chapter.id).inserted {
            errors.append("Chapter id \"\(chapter.id)\" is used by more than one chapter.")
        }
        let starts = story.chapters.filter(\.isFirst)
        if starts.isEmpty { errors.append("No chapter is marked as the first (\"is_first_chapter\": true).") }
        if starts.count > 1 {
            errors.append("Several chapters are marked as the first: \(starts.map { "\"\($0.id)\"" }.joined(separator: ", ")).")
        }

        let ids = Set(story.chapters.map(\.id))
        for chapter in story.chapters {
            let label = "Chapter \"\(chapter.id)\"" + (chapter.name.isEmpty ? "" : " (\(chapter.name))")
            if chapter.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { errors.append("\(label) has no text.") }
            if chapter.text.count > Limits.chapterText { errors.append("\(label) is longer than \(Limits.chapterText) characters.") }
            if chapter.name.count > Limits.nameLength { errors.append("\(label) has a name longer than \(Limits.nameLength) characters.") }
            if chapter.choices.count > Limits.choicesPerChapter {
                errors.append("\(label) has more than \(Limits.choicesPerChapter) choices.")
            }
            for (index, choice) in chapter.choices.enumerated() {
                if !ids.contains(choice.chapterID) {
                    errors.append("\(label), choice \(index + 1) leads to chapter \"\(choice.chapterID)\", which does not exist.")
                }
                if choice.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    errors.append("\(label), choice \(index + 1) has no text.")
                }
                if choice.text.count > Limits.choiceText {
                    errors.append("\(label), choice \(index + 1) is longer than \(Limits.choiceText) characters.")
                }
            }
            if let video = chapter.videoURL, !(video.hasPrefix("https://") || video.hasPrefix("http://")) {
                errors.append("\(label) has a video that is not an http(s) address.")
            }
        }
        if !story.chapters.contains(where: \.canEnd) { errors.append("The story has no ending: every chapter offers choices.") }

        if starts.count == 1, let start = starts.first {
            let reachable = Self.reachable(from: start.id, in: story)
            for chapter in story.chapters where !reachable.contains(chapter.id) {
                warnings.append(
                    "Chapter \"\(chapter.id)\"" + (chapter.name.isEmpty ? "" : " (\(chapter.name))")
                        + " cannot be reached from the first chapter.")
            }
            if !story.chapters.contains(where: { $0.canEnd && reachable.contains($0.id) }) {
                errors.append("No ending can be reached from the first chapter.")
            }
        }
    }

    /// The chapters a reader can get to from `start`.
    public static func reachable(from start: String, in story: Story) -> Set<String> {
        let byID = Dictionary(story.chapters.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = [start]
        var queue = [start]
        while let id = queue.popLast() {
            for choice in byID[id]?.choices ?? [] where byID[choice.chapterID] != nil && seen.insert(choice.chapterID).inserted {
                queue.append(choice.chapterID)
            }
        }
        return seen
    }
}
