import Zlib

/// Reads the files of a ZIP archive (stored or deflated entries, found through the central directory,
/// each checked against its CRC-32), with limits on count and size.
public enum ZipReader {
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    public struct Entry: Sendable, Equatable {
        public let path: String
        public let bytes: [UInt8]
    }

    public static func entries(_ archive: [UInt8], maximumEntries: Int = 500, maximumBytes: Int = 20 << 20) throws(Failure) -> [Entry] {
        guard let end = endOfCentralDirectory(archive) else { throw Failure(description: "not a zip file") }
        let count = u16(archive, end + 10)
        let directoryOffset = u32(archive, end + 16)
        guard count <= maximumEntries else { throw Failure(description: "more than \(maximumEntries) files") }
        var entries: [Entry] = []
        var offset = directoryOffset
        var total = 0
        for _ in 0..<count {
            guard offset + 46 <= archive.count, u32(archive, offset) == 0x0201_4B50 else {
                throw Failure(description: "a damaged directory")
            }
            let method = u16(archive, offset + 10)
            let crc = UInt32(u32(archive, offset + 16))
            let compressedSize = u32(archive, offset + 20)
            let size = u32(archive, offset + 24)
            let nameLength = u16(archive, offset + 28)
            let extraLength = u16(archive, offset + 30)
            let commentLength = u16(archive, offset + 32)
            let localOffset = u32(archive, offset + 42)
            guard offset + 46 + nameLength <= archive.count else { throw Failure(description: "a damaged directory") }
            let path = String(decoding: archive[offset + 46..<offset + 46 + nameLength], as: UTF8.self)
            offset += 46 + nameLength + extraLength + commentLength
            if path.hasSuffix("/") { continue }
            total += size
            guard total <= maximumBytes else { throw Failure(description: "the files expand beyond \(maximumBytes >> 20) MB") }
            guard localOffset + 30 <= archive.count, u32(archive, localOffset) == 0x0403_4B50 else {
                throw Failure(description: "a damaged entry: \(path)")
            }
            let dataStart = localOffset + 30 + u16(archive, localOffset + 26) + u16(archive, localOffset + 28)
            guard dataStart + compressedSize <= archive.count else { throw Failure(description: "a damaged entry: \(path)") }
            let data = Array(archive[dataStart..<dataStart + compressedSize])
            let bytes: [UInt8]
            switch method {
            case 0: bytes = data
            case 8:
                do { bytes = try Zlib.inflate(data, format: .raw, limit: size) } catch {
                    throw Failure(description: "\(path): \(error.description)")
                }
            default: throw Failure(description: "\(path) uses a compression method Trove does not read (\(method))")
            }
            guard bytes.count == size, Zlib.crc32(bytes) == crc else {
                throw Failure(description: "\(path) is corrupt (its checksum differs)")
            }
            entries.append(Entry(path: path, bytes: bytes))
        }
        return entries
    }

    static func endOfCentralDirectory(_ archive: [UInt8]) -> Int? {
        guard archive.count >= 22 else { return nil }
        var index = archive.count - 22
        let lowest = max(0, archive.count - 22 - 65_535)
        while index >= lowest {
            if u32(archive, index) == 0x0605_4B50 { return index }
            index -= 1
        }
        return nil
    }

    static func u16(_ bytes: [UInt8], _ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
    static func u32(_ bytes: [UInt8], _ offset: Int) -> Int { u16(bytes, offset) | u16(bytes, offset + 2) << 16 }
}
