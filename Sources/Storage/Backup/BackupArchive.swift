import Foundation
import Zlib

/// Trove's backup file: gzip of JSON lines, the same whichever database wrote it or will read it.
///
/// ```
/// {"format":"trove-backup","version":1,"created_at":…,"source":"sqlite","migrations":[101,102,…]}
/// {"table":"profiles","columns":["id","username",…],"kinds":["text","text",…]}
/// ["p1","ada",…]                        one array per row
/// {"end":true,"rows":1234,"crc32":…}    rows in all, and the CRC-32 of every line before this one
/// ```
/// A file that ends early, was altered, or carries more after its end is refused before anything is written.
public enum BackupArchive {
    public static let format = "trove-backup"
    public static let version = 1

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    public struct Header: Codable, Sendable, Equatable {
        public let format: String
        public let version: Int
        public let created_at: Int64
        public let source: String
        public let migrations: [Int]
    }

    public enum Kind: String, Codable, Sendable {
        case text, integer, real, boolean, blob
    }

    public struct Table: Codable, Sendable, Equatable {
        public let table: String
        public let columns: [String]
        public let kinds: [Kind]
    }

    struct End: Codable {
        let end: Bool
        let rows: Int
        let crc32: UInt32
    }

    /// One value of a row. Numbers are read back by their column's kind (2.0 and 2 are the same JSON).
    public enum Value: Sendable, Equatable, Codable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case boolean(Bool)
        case blob(Data)

        struct Blob: Codable {
            let base64: String
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .integer(let value): try container.encode(value)
            case .real(let value): try container.encode(value)
            case .text(let value): try container.encode(value)
            case .boolean(let value): try container.encode(value)
            case .blob(let value): try container.encode(Blob(base64: value.base64EncodedString()))
            }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .boolean(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .integer(value)
            } else if let value = try? container.decode(Double.self) {
                self = .real(value)
            } else if let value = try? container.decode(String.self) {
                self = .text(value)
            } else {
                let blob = try container.decode(Blob.self)
                guard let data = Data(base64Encoded: blob.base64) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "a blob that is not base64")
                }
                self = .blob(data)
            }
        }

        /// The value as its column's kind says it is stored.
        func asKind(_ kind: Kind) -> Value {
            switch (self, kind) {
            case (.integer(let value), .real): .real(Double(value))
            case (.integer(let value), .boolean): .boolean(value != 0)
            default: self
            }
        }
    }

    // MARK: Writing

    /// Writes the archive's lines through gzip into a file, keeping the running CRC-32 and row count.
    public final class Writer {
        private let handle: FileHandle
        private let compressor = Zlib.Compressor(format: .gzip)
        private var crc: UInt32 = 0
        private(set) var rows = 0
        private var pending: [UInt8] = []
        private let encoder: JSONEncoder = {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return encoder
        }()

        public init(creating url: URL, header: Header) throws {
            // Readable by its owner only: it holds every account's data and password hashes.
            guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw Failure(description: "cannot create \(url.path)")
            }
            handle = try FileHandle(forWritingTo: url)
            try line(header)
        }

        func table(_ table: Table) throws { try line(table) }

        func row(_ values: [Value]) throws {
            rows += 1
            try line(values)
        }

        func finish() throws {
            let end = End(end: true, rows: rows, crc32: crc)
            pending += try encoder.encode(end) + [0x0A]
            try flush(force: true)
            try handle.write(contentsOf: compressor.finish())
            try handle.synchronize()
            try handle.close()
        }

        private func line(_ value: some Encodable) throws {
            let bytes = Array(try encoder.encode(value)) + [0x0A]
            crc = Zlib.crc32(bytes, continuing: crc)
            pending += bytes
            try flush(force: false)
        }

        private func flush(force: Bool) throws {
            guard force || pending.count >= 256 << 10 else { return }
            try handle.write(contentsOf: compressor.compress(pending))
            pending.removeAll(keepingCapacity: true)
        }
    }

    // MARK: Reading

    public enum Line: Sendable {
        case table(Table)
        case row([Value])
    }

    /// Reads an archive's lines, checking its header, its end line's row count and CRC-32, and that nothing
    /// follows the end. `each` sees every table and row; the caller reads once with a no-op to check the whole
    /// file before writing anything, then again to write.
    public static func read(_ url: URL, each: (Line) async throws -> Void) async throws -> Header {
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw Failure(description: "cannot read \(url.path)") }
        defer { try? handle.close() }
        let decompressor: Zlib.Decompressor
        do { decompressor = try Zlib.Decompressor(format: .gzip) } catch { throw Failure(description: error.description) }
        let decoder = JSONDecoder()
        var buffer: [UInt8] = []
        var header: Header?
        var end: End?
        var crc: UInt32 = 0
        var rows = 0
        func take(_ line: ArraySlice<UInt8>) async throws {
            guard end == nil else { throw Failure(description: "the file goes on after its end: it was altered") }
            let data = Data(line)
            if header == nil {
                guard let read = try? decoder.decode(Header.self, from: data), read.format == format else {
                    throw Failure(description: "not a Trove backup")
                }
                guard read.version <= version else {
                    throw Failure(
                        description:
                            "a backup of format \(read.version), newer than this trove reads (\(version)): restore it with a newer trove")
                }
                header = read
            } else if line.first == UInt8(ascii: "[") {
                guard let values = try? decoder.decode([Value].self, from: data) else {
                    throw Failure(description: "a damaged row: the file was altered")
                }
                rows += 1
                try await each(.row(values))
            } else if let table = try? decoder.decode(Table.self, from: data) {
                guard table.columns.count == table.kinds.count else {
                    throw Failure(description: "a damaged table line: the file was altered")
                }
                try await each(.table(table))
            } else if let read = try? decoder.decode(End.self, from: data) {
                guard read.rows == rows, read.crc32 == crc else {
                    throw Failure(description: "its checksum or row count does not match its content: the file was altered")
                }
                end = read
                return
            } else {
                throw Failure(description: "a line Trove cannot read: the file was altered")
            }
            crc = Zlib.crc32(Array(line) + [0x0A], continuing: crc)
        }
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 256 << 10) ?? Data() } catch { throw Failure(description: "cannot read \(url.path)") }
            if chunk.isEmpty { break }
            do { buffer += try decompressor.decompress([UInt8](chunk)) } catch { throw Failure(description: "not a gzip file, or damaged") }
            var start = 0
            while let newline = buffer[start...].firstIndex(of: 0x0A) {
                try await take(buffer[start..<newline])
                start = newline + 1
            }
            buffer.removeFirst(start)
        }
        guard decompressor.finished, buffer.isEmpty, let header, end != nil else {
            throw Failure(description: "the file ends early: it was cut short")
        }
        return header
    }
}
