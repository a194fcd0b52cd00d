import ChooseYourDestiny
import Storage
import ZipArchive

/// A story uploaded as a zip: its story.json (at the top or in one folder) and the pictures in the
/// resources/ folder beside it, which the story names as "resources/<name>".
enum StoryArchive {
    static func read(_ archive: [UInt8]) throws(StoryError) -> (StoryIntake.Accepted, [StoryRepository.Resource]) {
        let entries: [ZipReader.Entry]
        do { entries = try ZipReader.entries(archive) } catch { throw .unreadable("The zip file cannot be read: \(error.description).") }
        let candidates = entries.filter { $0.path == "story.json" || $0.path.hasSuffix("/story.json") }
        guard let storyFile = candidates.min(by: { $0.path.count < $1.path.count }) else {
            throw .unreadable("The zip file holds no story.json.")
        }
        let folder = String(storyFile.path.dropLast("story.json".count))
        let accepted = try StoryIntake.accept(String(decoding: storyFile.bytes, as: UTF8.self), format: .storyJSON)
        var pictures: [StoryRepository.Resource] = []
        for entry in entries where entry.path.hasPrefix(folder + "resources/") {
            let name = String(entry.path.dropFirst((folder + "resources/").count))
            guard !name.contains("/"), entry.bytes.count <= StoryPictures.maximumBytes,
                let type = try StoryPictures.contentType(name: name, bytes: entry.bytes)
            else { continue }
            pictures.append(StoryRepository.Resource(name: name, contentType: type, bytes: entry.bytes))
        }
        return (accepted, pictures)
    }
}
