/// Every way a story comes in (an upload, the command line, a sync) passes here: read the format,
/// validate, and name it.
public enum StoryIntake {
    public enum Format: Sendable {
        case storyJSON
        case twee
    }

    public struct Accepted: Sendable {
        public let id: String
        public let story: Story
        public let warnings: [String]
    }

    public static let maximumBytes = 2 << 20

    public static func accept(_ text: String, format: Format) throws(StoryError) -> Accepted {
        guard text.utf8.count <= maximumBytes else { throw .invalid(["The file is larger than \(maximumBytes >> 20) MB."]) }
        let story: Story
        var warnings: [String] = []
        switch format {
        case .storyJSON:
            do { story = try StoryFile.read(text) } catch { throw .unreadable(error.description) }
        case .twee:
            do {
                let result = try Twee.importStory(text)
                story = result.story
                warnings = result.warnings
            } catch {
                throw .unreadable(error.description)
            }
        }
        let validation = StoryValidation(story)
        guard validation.isValid else { throw .invalid(validation.errors) }
        return Accepted(id: identifier(for: story), story: story, warnings: warnings + validation.warnings)
    }

    /// A readable, URL-safe id: the story's own id when it is a word ("the-lighthouse"), else from its name
    /// (the original files numbered their stories 1, 2, 3…, which would collide between authors).
    public static func identifier(for story: Story) -> String {
        let own = story.id.trimmingCharacters(in: .whitespaces)
        let source = own.isEmpty || own.allSatisfy(\.isNumber) ? story.name : own
        return Twee.slug(source)
    }
}

/// The pictures a story may carry, by file extension.
public enum StoryPictures {
    static let types = ["png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml"]
    public static let maximumBytes = 5 << 20

    public static func contentType(forName name: String) -> String? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return types[name[name.index(after: dot)...].lowercased()]
    }
}
