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

/// A board read by hand from a save's body, the same value JSONDecoder reads (`JSONReader` gives the rest to it):
/// JSONDecoder took a third of a save's time.
extension Board: JSONReadable {
    init(reading reader: inout JSONReader) throws(JSONReader.GiveUp) {
        var wordSetId: String?
        var font: Font?
        var fontScale: Double?
        var magnets: [Magnet]?
        var extraWords: [String]?
        var aspect: Double??
        try reader.object { reader, key throws(JSONReader.GiveUp) in
            switch key {
            case "word_set_id": try JSONReader.once(&wordSetId, try reader.string())
            case "font":
                guard let value = Font(rawValue: try reader.string()) else { throw JSONReader.GiveUp() }
                try JSONReader.once(&font, value)
            case "font_scale": try JSONReader.once(&fontScale, try reader.double())
            case "magnets":
                var read: [Magnet] = []
                try reader.array { reader throws(JSONReader.GiveUp) in read.append(try Magnet(reading: &reader)) }
                try JSONReader.once(&magnets, read)
            case "extra_words":
                var read: [String] = []
                try reader.array { reader throws(JSONReader.GiveUp) in read.append(try reader.string()) }
                try JSONReader.once(&extraWords, read)
            case "aspect": try JSONReader.once(&aspect, try reader.null() ? nil : try reader.double())
            default: try reader.skip()
            }
        }
        guard let wordSetId, let font, let fontScale, let magnets, let extraWords else { throw JSONReader.GiveUp() }
        self.init(wordSetId: wordSetId, font: font, fontScale: fontScale, magnets: magnets, extraWords: extraWords)
        self.aspect = aspect ?? nil
    }
}

extension Board.Magnet {
    init(reading reader: inout JSONReader) throws(JSONReader.GiveUp) {
        var id: String?
        var word: String?
        var x: Double?
        var y: Double?
        var rotation: Double?
        var z: Int?
        try reader.object { reader, key throws(JSONReader.GiveUp) in
            switch key {
            case "id": try JSONReader.once(&id, try reader.string())
            case "word": try JSONReader.once(&word, try reader.string())
            case "x": try JSONReader.once(&x, try reader.double())
            case "y": try JSONReader.once(&y, try reader.double())
            case "rotation": try JSONReader.once(&rotation, try reader.double())
            case "z": try JSONReader.once(&z, try reader.integer())
            default: try reader.skip()
            }
        }
        guard let id, let word, let x, let y, let rotation, let z else { throw JSONReader.GiveUp() }
        self.init(id: id, word: word, x: x, y: y, rotation: rotation, z: z)
    }
}
