import Foundation

/// A Twine 2 story as its author made it: passages with their macros, in one story format. Read from a
/// published HTML file (`TwineHTML.read`) or from Twee 3 (`TwineStory.read(twee:)`), played by
/// `TwineInterpreter`, and turned into today's `Story` by `TwineStory.troveStory()`.
public struct TwineStory: Sendable, Equatable {
    public enum Format: Sendable, Equatable {
        case harlowe
        case sugarcube
        /// Chapbook, Snowman…: links are read, macros are shown as text.
        case other(String)

        public init(name: String?) {
            switch name?.lowercased().twineTrimmed {
            case "harlowe"?: self = .harlowe
            case "sugarcube"?: self = .sugarcube
            case let other?: self = other.isEmpty ? .harlowe : .other(name ?? "")
            case nil: self = .harlowe
            }
        }

        public var name: String {
            switch self {
            case .harlowe: "Harlowe"
            case .sugarcube: "SugarCube"
            case .other(let name): name
            }
        }
    }

    public struct Passage: Sendable, Equatable {
        public var pid: String?
        public var name: String
        public var tags: [String]
        public var text: String

        public init(pid: String? = nil, name: String, tags: [String] = [], text: String) {
            self.pid = pid
            self.name = name
            self.tags = tags
            self.text = text
        }
    }

    public struct FormatError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    public var name: String
    public var ifid: String?
    public var format: Format
    public var formatVersion: String?
    public var start: String
    /// Story passages only: the story's JavaScript and stylesheet are left out.
    public private(set) var passages: [Passage]
    /// Warnings found while reading (duplicate names, JavaScript that will not run).
    public var warnings: [String]
    private var index: [String: Int]
    /// Names without their surrounding spaces, for links written `[[Go-> Name ]]` (Twine keeps a name's spaces).
    private var trimmedIndex: [String: Int]

    public init(
        name: String, ifid: String? = nil, format: Format, formatVersion: String? = nil, start: String, passages: [Passage],
        warnings: [String] = []
    ) {
        self.name = name
        self.ifid = ifid
        self.format = format
        self.formatVersion = formatVersion
        self.start = start
        self.warnings = warnings
        // Two passages with one name: the later one is kept, where the first stood (as Tweego does).
        var kept: [Passage] = []
        var index: [String: Int] = [:]
        for passage in passages {
            if let earlier = index[passage.name] {
                self.warnings.append("Two passages are named \"\(passage.name)\": the later one is kept.")
                kept[earlier] = passage
            } else {
                index[passage.name] = kept.count
                kept.append(passage)
            }
        }
        self.passages = kept
        self.index = index
        var trimmedIndex: [String: Int] = [:]
        for (offset, passage) in kept.enumerated() {
            let trimmed = passage.name.twineTrimmed
            if trimmedIndex[trimmed] == nil || passage.name == trimmed { trimmedIndex[trimmed] = offset }
        }
        self.trimmedIndex = trimmedIndex
    }

    public func passage(named name: String) -> Passage? { index[name].map { passages[$0] } }

    /// The passage a link or macro means by `name`: that name exactly, else the one whose name differs only by
    /// surrounding spaces.
    public func resolve(_ name: String) -> String? {
        if index[name] != nil { return name }
        return trimmedIndex[name.twineTrimmed].map { passages[$0].name }
    }

    public static func == (left: TwineStory, right: TwineStory) -> Bool {
        left.name == right.name && left.ifid == right.ifid && left.format == right.format && left.formatVersion == right.formatVersion
            && left.start == right.start && left.passages == right.passages
    }

    /// The format named in the file, or (when none is named) the one whose macros the passages use.
    static func guessFormat(named name: String?, passages: [Passage]) -> Format {
        if let name, !name.twineTrimmed.isEmpty { return Format(name: name) }
        return passages.contains { $0.text.contains("<<") && $0.text.contains(">>") } ? .sugarcube : .harlowe
    }

    // MARK: Twee 3

    /// Reads Twee 3: `StoryTitle`, `StoryData` (start, ifid, format, format-version), and the passages; script and
    /// stylesheet passages are left out.
    public static func read(twee source: String) throws(FormatError) -> TwineStory {
        let all: [Twee.Passage]
        do { all = try Twee.parsePassages(source) } catch { throw FormatError(description: error.description) }
        var title = ""
        var start: String?
        var ifid: String?
        var formatName: String?
        var formatVersion: String?
        var passages: [Passage] = []
        var warnings: [String] = []
        for passage in all {
            switch passage.name {
            case "StoryTitle":
                title = passage.text.twineTrimmed
            case "StoryData":
                guard let data = try? LenientJSON.parse(passage.text) else {
                    throw FormatError(description: "The StoryData passage is not JSON.")
                }
                if case .string(let value)? = data["start"] { start = value }
                if case .string(let value)? = data["ifid"] { ifid = value }
                if case .string(let value)? = data["format"] { formatName = value }
                if case .string(let value)? = data["format-version"] { formatVersion = value }
            default:
                if passage.tags.contains("script") || passage.tags.contains("stylesheet") {
                    if passage.tags.contains("script"), !passage.text.twineTrimmed.isEmpty {
                        warnings.append("The story's JavaScript (passage \"\(passage.name)\") is not run by Trove.")
                    }
                    continue
                }
                passages.append(Passage(name: passage.name, tags: passage.tags, text: passage.text))
            }
        }
        guard !passages.isEmpty else { throw FormatError(description: "The file holds no passages (each starts with a line '::Name').") }
        let first = start ?? "Start"
        guard passages.contains(where: { $0.name == first }) else {
            throw FormatError(
                description: start.map { "StoryData names \"\($0)\" as the start, but there is no such passage." }
                    ?? "There is no start: name a passage \"Start\" or set \"start\" in StoryData.")
        }
        return TwineStory(
            name: title.isEmpty ? "Untitled story" : title, ifid: ifid, format: guessFormat(named: formatName, passages: passages),
            formatVersion: formatVersion, start: first, passages: passages, warnings: warnings
        )
    }

    /// The story as Twee 3 source (what Tweego or Twine's "Export as Twee" writes).
    public func twee() -> String {
        var data: [String] = []
        if let ifid { data.append("\"ifid\": \(Self.json(ifid))") }
        data.append("\"format\": \(Self.json(format.name))")
        if let formatVersion { data.append("\"format-version\": \(Self.json(formatVersion))") }
        data.append("\"start\": \(Self.json(start))")
        var out = ":: StoryTitle\n\(name)\n\n:: StoryData\n{\n  \(data.joined(separator: ",\n  "))\n}\n"
        for passage in passages {
            let tags = passage.tags.isEmpty ? "" : " [\(passage.tags.map(Self.escapeTwee).joined(separator: " "))]"
            out += "\n:: \(Self.escapeTwee(passage.name))\(tags)\n\(passage.text)\n"
        }
        return out
    }

    static func escapeTwee(_ text: String) -> String {
        var out = ""
        for character in text {
            if "[]{}\\".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    static func json(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: Twine 2 HTML

    /// The story as Twine 2 writes it into a published file (`<tw-storydata>` with its passages), inside a bare
    /// HTML page: the story format's own engine is not included.
    public func html() -> String {
        let startPID = passages.firstIndex { $0.name == start }.map { passages[$0].pid ?? String($0 + 1) } ?? "1"
        var out = "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>\(TwineHTML.escape(name))</title>\n</head>\n<body>\n"
        out += "<tw-storydata name=\"\(TwineHTML.escape(name))\" startnode=\"\(startPID)\" creator=\"Trove\" creator-version=\"1\""
        if let ifid { out += " ifid=\"\(TwineHTML.escape(ifid))\"" }
        out += " zoom=\"1\" format=\"\(TwineHTML.escape(format.name))\""
        if let formatVersion { out += " format-version=\"\(TwineHTML.escape(formatVersion))\"" }
        out += " options=\"\" hidden>"
        out += "<style role=\"stylesheet\" id=\"twine-user-stylesheet\" type=\"text/twine-css\"></style>"
        out += "<script role=\"script\" id=\"twine-user-script\" type=\"text/twine-javascript\"></script>"
        for (offset, passage) in passages.enumerated() {
            let position = "\((offset % 8) * 125 + 100),\((offset / 8) * 125 + 100)"
            out +=
                "<tw-passagedata pid=\"\(passage.pid ?? String(offset + 1))\" name=\"\(TwineHTML.escape(passage.name))\" tags=\"\(TwineHTML.escape(passage.tags.joined(separator: " ")))\" position=\"\(position)\" size=\"100,100\">"
            out += TwineHTML.escape(passage.text)
            out += "</tw-passagedata>"
        }
        out += "</tw-storydata>\n</body>\n</html>\n"
        return out
    }
}
