import Foundation
import TestSupport
import Testing
import ZipArchive
import Zlib

@Suite struct ZipArchiveTests {
    /// Made with Python's zlib (level 9, raw deflate): dynamic Huffman blocks with long back-references.
    static let deflated =
        "8yxRKE8sVkhUSEksylZIzEtRKC7JL8qtVMjLTM8osVYoyUhVKErMzFNIS83JUQDSQNmi1LySYj0Fz1Gto1pHtY5qHdU6qnVU66jWkaTV0cM/zNkrMMLVJzjK3S/UyTMg3MU7KNLNN2RUZrjKAAA="
    static let text =
        String(repeating: "It was a dark and stormy night; the rain fell in torrents. ", count: 40)
        + String((0..<500).map { Character(Unicode.Scalar(65 + ($0 * 7) % 26)!) })

    func bytes(_ base64: String) -> [UInt8] { [UInt8](Data(base64Encoded: base64)!) }

    @Test func inflatesDynamicAndFixedHuffmanBlocks() throws {
        #expect(try Zlib.inflate(bytes(Self.deflated), format: .raw, limit: 1 << 20) == Array(Self.text.utf8))
        #expect(try Zlib.inflate(bytes("y0jNyclXyECQAA=="), format: .raw, limit: 100) == Array("hello hello hello".utf8))
    }

    @Test func refusesCorruptOrExpandingData() {
        #expect(throws: Zlib.Failure.self) { try Zlib.inflate(bytes(Self.deflated), format: .raw, limit: 1000) }
        #expect(throws: Zlib.Failure.self) { try Zlib.inflate(Array(bytes(Self.deflated).prefix(40)), format: .raw, limit: 1 << 20) }
        #expect(throws: Zlib.Failure.self) { try Zlib.inflate([0xFF, 0xFF], format: .raw, limit: 100) }
    }

    @Test func readsAnArchivesFilesCheckingEach() throws {
        let entries = try ZipReader.entries(TestArchive.storyZip)
        #expect(entries.map(\.path) == ["tale/story.json", "tale/resources/cover.svg", "tale/resources/fork.svg"])
        #expect(String(decoding: entries[0].bytes, as: UTF8.self).contains("The Zipped Tale"))
        #expect(String(decoding: entries[2].bytes, as: UTF8.self).contains("#421"))
        // A flipped byte in the stored picture fails its checksum; something else is not a zip.
        var damaged = TestArchive.storyZip
        let marker = Array("#421".utf8)
        let index = try #require((0...(damaged.count - 4)).first { Array(damaged[$0..<$0 + 4]) == marker })
        damaged[index + 1] = UInt8(ascii: "5")
        #expect(throws: ZipReader.Failure.self) { try ZipReader.entries(damaged) }
        #expect(throws: ZipReader.Failure.self) { try ZipReader.entries(Array("not a zip".utf8)) }
        #expect(throws: ZipReader.Failure.self) { try ZipReader.entries(TestArchive.storyZip, maximumEntries: 2) }
    }
}
