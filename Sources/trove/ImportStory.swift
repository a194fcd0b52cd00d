import ArgumentParser
import ChooseYourDestiny
import Foundation
import Storage

struct ImportStory: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "story",
        abstract:
            "Import a story: a story.json, a Twee file (.twee, .tw), a published Twine 2 story (.html), or a folder holding one of them (story.json, story.html, story.twee) and its pictures."
    )

    @Argument(help: "The file or folder.")
    var path: String

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw CleanExit.failure("There is no file or folder '\(path)'.")
        }
        guard let file = isFolder.boolValue ? Self.storyFile(in: url) : url else {
            throw CleanExit.failure("'\(path)' holds none of \(Self.folderStoryFiles.joined(separator: ", ")).")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else { throw CleanExit.failure("Cannot read '\(file.path)'.") }
        let format: StoryIntake.Format =
            switch file.pathExtension.lowercased() {
            case "twee", "tw", "txt": .twee
            case "html", "htm": .twineHTML
            default: .storyJSON
            }
        let accepted: StoryIntake.Accepted
        do {
            accepted = try StoryIntake.accept(String(decoding: data, as: UTF8.self), format: format)
        } catch {
            switch error {
            case .invalid(let problems):
                throw CleanExit.failure("'\(file.path)' is not a valid story:\n  " + problems.joined(separator: "\n  "))
            case .unreadable(let message): throw CleanExit.failure("'\(file.path)': \(message)")
            default: throw CleanExit.failure("'\(file.path)': \(error)")
            }
        }
        let pictures = isFolder.boolValue ? try Self.pictures(in: url.appendingPathComponent("resources")) : nil
        let db = try await CommandDatabase.open(database)
        do {
            try await StoryRepository(database: db.sql).save(
                id: accepted.id, story: accepted.story, owner: nil, source: "cli", resources: pictures,
                twineHTML: accepted.needsInterpreter ? accepted.twine?.html() : nil)
            await db.shutdown()
        } catch StoryError.storyExists {
            await db.shutdown()
            throw CleanExit.failure("An author's story already has the id '\(accepted.id)': give this one another \"id\".")
        } catch {
            await db.shutdown()
            throw CleanExit.failure("Import failed: \(error)")
        }
        print(
            "Imported \"\(accepted.story.name)\" as \(accepted.id): \(accepted.story.chapters.count) chapters"
                + (pictures.map { ", \($0.count) pictures" } ?? "") + ".")
        for warning in accepted.warnings { print("  warning: \(warning)") }
    }

    /// The names a story takes in a folder, in the order they are looked for: one loop over `samples/stories/*/`
    /// imports Trove's own stories and the Twine ones alike (docs/DEPLOY.md, `make import`).
    static let folderStoryFiles = ["story.json", "story.html", "story.twee", "story.tw"]

    static func storyFile(in folder: URL) -> URL? {
        folderStoryFiles.map { folder.appendingPathComponent($0) }.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The folder's pictures by file name (the story names them "resources/<name>").
    static func pictures(in folder: URL) throws -> [StoryRepository.Resource] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return try names.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                data.count <= StoryPictures.maximumBytes,
                let type = try StoryPictures.contentType(name: name, bytes: [UInt8](data))
            else { return nil }
            return StoryRepository.Resource(name: name, contentType: type, bytes: [UInt8](data))
        }
    }
}
