import Pictures

/// Every way a story comes in (an upload, the command line, a sync) passes here: read the format,
/// validate, and name it.
public enum StoryIntake {
    public enum Format: Sendable {
        case storyJSON
        case twee
        /// A Twine 2 published story (`<tw-storydata>`), played with `TwineInterpreter` when it keeps state.
        case twineHTML
        /// Twee read as a Twine story (macros run) rather than as plain links.
        case twineTwee
    }

    public struct Accepted: Sendable {
        public let id: String
        public let story: Story
        public let warnings: [String]
        /// The Twine story behind `story` (Twine formats only).
        public var twine: TwineStory? = nil
        /// The story keeps variables or jumps with (goto:): read it through `TwineInterpreter`, not `story`'s choices.
        public var needsInterpreter = false
    }

    public static let maximumBytes = 2 << 20

    /// `work` bounds the time reading a Twine story may take (see `TwineWork`).
    public static func accept(_ text: String, format: Format, work: TwineWork = TwineWork()) throws(StoryError) -> Accepted {
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
        case .twineHTML, .twineTwee:
            return try acceptTwine(text, format: format, work: work)
        }
        let validation = StoryValidation(story)
        guard validation.isValid else { throw .invalid(validation.errors) }
        return Accepted(id: identifier(for: story), story: story, warnings: warnings + validation.warnings)
    }

    /// A Twine story need not end (many offer "play again"), and a passage only `(display:)`ed is not lost.
    static func acceptTwine(_ text: String, format: Format, work: TwineWork) throws(StoryError) -> Accepted {
        let twine: TwineStory
        do {
            twine = format == .twineHTML ? try TwineHTML.read(text) : try TwineStory.read(twee: text)
            try twine.checkLimits(work: work)
        } catch {
            throw .unreadable(error.description)
        }
        let imported = twine.troveStory(work: work)
        if let exhausted = work.exhausted { throw .unreadable("The story cannot be read: \(exhausted.description).") }
        let validation = StoryValidation(imported.story)
        let endless = ["The story has no ending: every chapter offers choices.", "No ending can be reached from the first chapter."]
        let errors = validation.errors.filter { !endless.contains($0) }
        guard errors.isEmpty else { throw .invalid(errors) }
        let included = imported.included
        let validationWarnings =
            validation.errors.filter { endless.contains($0) }
            + validation.warnings.filter { warning in
                !included.contains {
                    warning.hasPrefix("Chapter \"\($0)\"") && warning.hasSuffix("cannot be reached from the first chapter.")
                }
            }
        var accepted = Accepted(
            id: identifier(for: imported.story), story: imported.story, warnings: imported.warnings + validationWarnings)
        accepted.twine = twine
        accepted.needsInterpreter = imported.needsInterpreter
        return accepted
    }

    /// A readable, URL-safe id: the story's own id when it is a word ("the-lighthouse"), else from its name
    /// (the original files numbered their stories 1, 2, 3…, which would collide between authors).
    public static func identifier(for story: Story) -> String {
        let own = story.id.trimmingCharacters(in: .whitespaces)
        let source = own.isEmpty || own.allSatisfy(\.isNumber) ? story.name : own
        return Twee.slug(source)
    }
}

/// The pictures a story may carry: by file extension, and only when the bytes are that kind of picture (a
/// script named evil.png is refused, not stored and served as image/png).
public enum StoryPictures {
    static let types = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml",
    ]
    public static let maximumBytes = 5 << 20

    /// The content type of the picture `name`; nil when the name is not a picture's (other files are left
    /// out, as before). Throws when the name promises a picture the bytes are not.
    public static func contentType(name: String, bytes: [UInt8]) throws(StoryError) -> String? {
        guard let dot = name.lastIndex(of: "."), let type = types[name[name.index(after: dot)...].lowercased()] else { return nil }
        let matches = type == "image/svg+xml" ? SVGSafety.isSafePicture(bytes) : ImageKind(sniffing: bytes)?.contentType == type
        guard matches else {
            throw .unreadable(
                type == "image/svg+xml"
                    ? "resources/\(name) is not a plain SVG picture (scripts, event handlers and embedded documents are not allowed)."
                    : "resources/\(name) is not a \(type.dropFirst("image/".count).uppercased()) picture: its bytes say otherwise.")
        }
        return type
    }
}
