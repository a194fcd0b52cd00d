import Foundation

/// Reads and writes `story.json` files: the original app's shape
/// `{"story":{"id","name","pic_path","rating","summary","chapters":[{"id","name","is_first_chapter","text","pic_path","choices":[{"chapter_id","text"}]}]}}`,
/// trailing commas allowed, ids as strings or numbers, Trove's optional fields read when present.
public enum StoryFile {
    public struct FormatError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    public static func read(_ text: String) throws(FormatError) -> Story {
        let document: JSONValue
        do {
            document = try LenientJSON.parse(text)
        } catch {
            throw FormatError(description: "story.json is not valid JSON at \(error.description)")
        }
        guard let story = document["story"], case .object = story else {
            throw FormatError(description: "story.json must hold an object {\"story\": {…}}")
        }
        guard case .array(let chapterValues)? = story["chapters"] else {
            throw FormatError(description: "the story has no \"chapters\" list")
        }
        var chapters: [Chapter] = []
        for (offset, value) in chapterValues.enumerated() {
            let place = "chapter \(offset + 1)"
            guard case .object = value else { throw FormatError(description: "\(place) is not an object") }
            let id = try identifier(value["id"], "\(place): \"id\"")
            var choices: [Choice] = []
            if let list = value["choices"], list != .null {
                guard case .array(let items) = list else { throw FormatError(description: "chapter \(id): \"choices\" must be a list") }
                for (index, item) in items.enumerated() {
                    let choicePlace = "chapter \(id), choice \(index + 1)"
                    choices.append(
                        Choice(
                            chapterID: try identifier(item["chapter_id"], "\(choicePlace): \"chapter_id\""),
                            text: try string(item["text"], "\(choicePlace): \"text\"") ?? ""))
                }
            }
            chapters.append(
                Chapter(
                    id: id, name: try string(value["name"], "chapter \(id): \"name\"") ?? "",
                    isFirst: try bool(value["is_first_chapter"], "chapter \(id): \"is_first_chapter\""),
                    text: try string(value["text"], "chapter \(id): \"text\"") ?? "",
                    picPath: try string(value["pic_path"], "chapter \(id): \"pic_path\"").flatMap { $0.isEmpty ? nil : $0 },
                    videoURL: try string(value["video_url"], "chapter \(id): \"video_url\"").flatMap { $0.isEmpty ? nil : $0 },
                    choices: choices,
                    endsOnSomePaths: try bool(value["ends_on_some_paths"], "chapter \(id): \"ends_on_some_paths\"")
                ))
        }
        return Story(
            id: try identifier(story["id"], "the story's \"id\""), name: try string(story["name"], "the story's \"name\"") ?? "",
            picPath: try string(story["pic_path"], "the story's \"pic_path\"").flatMap { $0.isEmpty ? nil : $0 },
            rating: try scalarText(story["rating"], "the story's \"rating\""),
            summary: try string(story["summary"], "the story's \"summary\"") ?? "",
            author: try string(story["author"], "the story's \"author\""),
            description: try string(story["description"], "the story's \"description\""),
            language: try string(story["language"], "the story's \"language\""),
            chapters: chapters
        )
    }

    /// The story in the original shape (Trove's additions as extra keys old readers ignore).
    public static func write(_ story: Story) -> String {
        var chapters: [[String: Any]] = []
        for chapter in story.chapters {
            var entry: [String: Any] = ["id": chapter.id, "name": chapter.name, "text": chapter.text]
            if chapter.isFirst { entry["is_first_chapter"] = true }
            if let picPath = chapter.picPath { entry["pic_path"] = picPath }
            if let video = chapter.videoURL { entry["video_url"] = video }
            if !chapter.choices.isEmpty { entry["choices"] = chapter.choices.map { ["chapter_id": $0.chapterID, "text": $0.text] } }
            if chapter.endsOnSomePaths && !chapter.choices.isEmpty { entry["ends_on_some_paths"] = true }
            chapters.append(entry)
        }
        var body: [String: Any] = ["id": story.id, "name": story.name, "summary": story.summary, "chapters": chapters]
        if let picPath = story.picPath { body["pic_path"] = picPath }
        if let rating = story.rating { body["rating"] = rating }
        if let author = story.author { body["author"] = author }
        if let description = story.description { body["description"] = description }
        if let language = story.language { body["language"] = language }
        let data = try! JSONSerialization.data(
            withJSONObject: ["story": body], options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    static func identifier(_ value: JSONValue?, _ what: String) throws(FormatError) -> String {
        switch value {
        case .string(let text)? where !text.trimmingCharacters(in: .whitespaces).isEmpty: return text.trimmingCharacters(in: .whitespaces)
        case .number(let number)? where number == number.rounded() && abs(number) < 1e15: return String(Int64(number))
        case nil, .null?: throw FormatError(description: "\(what) is missing")
        default: throw FormatError(description: "\(what) must be a text or a whole number")
        }
    }

    static func string(_ value: JSONValue?, _ what: String) throws(FormatError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw FormatError(description: "\(what) must be a text")
        }
    }

    /// Ratings were written as text ("PG") or numbers (4.5).
    static func scalarText(_ value: JSONValue?, _ what: String) throws(FormatError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        // Whole numbers read as such ("4", not "4.0"); one too large for Int64 must not trap.
        case .number(let number)?: return Int64(exactly: number).map { String($0) } ?? String(number)
        default: throw FormatError(description: "\(what) must be a text or a number")
        }
    }

    static func bool(_ value: JSONValue?, _ what: String) throws(FormatError) -> Bool {
        switch value {
        case nil, .null?: return false
        case .bool(let flag)?: return flag
        case .string(let text)?: return ["true", "yes", "1"].contains(text.lowercased())
        case .number(let number)?: return number != 0
        default: throw FormatError(description: "\(what) must be true or false")
        }
    }
}
