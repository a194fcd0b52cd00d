import Foundation
import MagneticPoetry
import Storage

/// A poem as the API answers it (and as the account export keeps it); a list leaves the board out.
struct PoemJSON: Codable, Sendable, APIAnswer {
    let id: String
    let title: String
    let version: Int
    let updated_at: Date
    let board: Board?
    let has_background: Bool
    let public_id: String?

    init(_ poem: PoemRepository.Poem) {
        id = poem.id
        title = poem.title
        version = poem.version
        updated_at = poem.updatedAt
        board = poem.board
        has_background = poem.hasBackground
        public_id = poem.publicId
    }
}

/// A board written by hand, the same document as JSONEncoder writes: a saved poem's board is written on every save,
/// and JSONEncoder took a sixth of a save's time (docs/BENCHMARKS.md).
extension Board: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { w in
            w.key("word_set_id")
            w.string(wordSetId)
            w.key("font")
            w.string(font.rawValue)
            w.key("font_scale")
            w.number(fontScale)
            w.key("magnets")
            w.array(magnets) { w, magnet in
                w.object { w in
                    w.key("id")
                    w.string(magnet.id)
                    w.key("word")
                    w.string(magnet.word)
                    w.key("x")
                    w.number(magnet.x)
                    w.key("y")
                    w.number(magnet.y)
                    w.key("rotation")
                    w.number(magnet.rotation)
                    w.key("z")
                    w.integer(magnet.z)
                }
            }
            w.key("extra_words")
            w.array(extraWords) { w, word in w.string(word) }
            if let aspect {
                w.key("aspect")
                w.number(aspect)
            }
        }
    }

    /// The board as JSON text, as stored.
    var jsonText: String {
        var writer = JSONWriter()
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
