import CZlib

/// zlib's deflate, inflate and checksums: zip entries, card PNGs and gzip answers, instead of code of our own.
public enum Zlib {
    public enum Format: Sendable {
        /// Bare DEFLATE (RFC 1951), as zip entries hold it.
        case raw
        /// zlib's wrapper (RFC 1950), as PNG holds it.
        case zlib
        /// gzip (RFC 1952), as `Content-Encoding: gzip` sends it.
        case gzip

        var windowBits: Int32 {
            switch self {
            case .raw: -15
            case .zlib: 15
            case .gzip: 15 + 16
            }
        }
    }

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Compresses `input` whole (level 0–9; 6 is zlib's default balance of size and time).
    public static func deflate(_ input: [UInt8], format: Format, level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, format.windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { fatalError("zlib could not start a deflate stream (out of memory)") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        let written: Int = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                // deflateBound guarantees room for everything in one call.
                precondition(CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END, "zlib's deflate did not finish within deflateBound")
                return Int(stream.total_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }

    /// Decompresses `input`, refusing an output over `limit` bytes (a small archive cannot expand into
    /// gigabytes), a damaged stream, and a stream that ends early.
    public static func inflate(_ input: [UInt8], format: Format, limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, format.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib could not start an inflate stream")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var status: Int32 = Z_OK
        let result: Failure? = input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while status != Z_STREAM_END {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return target.count - Int(stream.avail_out)
                }
                switch status {
                case Z_OK, Z_STREAM_END:
                    guard output.count + produced <= limit else { return Failure(description: "expands beyond \(limit) bytes") }
                    output += chunk[..<produced]
                    if status == Z_OK, produced == 0, stream.avail_in == 0 { return Failure(description: "the data ends early") }
                case Z_BUF_ERROR:
                    return Failure(description: "the data ends early")
                default:
                    return Failure(description: "damaged compressed data")
                }
            }
            return nil
        }
        if let result { throw result }
        return output
    }

    /// CRC-32 (PNG chunks, zip entries, gzip).
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    /// Adler-32 (the end of a zlib stream).
    public static func adler32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.adler32(1, $0.baseAddress, uInt($0.count))) }
    }
}

extension Zlib {
    /// Compresses a stream piece by piece (a backup larger than memory should hold at once).
    public final class Compressor {
        private var stream = z_stream()
        private var chunk = [UInt8](repeating: 0, count: 64 << 10)

        public init(format: Format, level: Int32 = 6) {
            guard
                deflateInit2_(
                    &stream, level, Z_DEFLATED, format.windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                    Int32(MemoryLayout<z_stream>.size)) == Z_OK
            else { fatalError("zlib could not start a deflate stream (out of memory)") }
        }

        deinit { deflateEnd(&stream) }

        /// The compressed bytes `input` gives so far.
        public func compress(_ input: [UInt8]) -> [UInt8] { run(input, flush: Z_NO_FLUSH) }

        /// The rest of the stream, with its trailer.
        public func finish() -> [UInt8] { run([], flush: Z_FINISH) }

        private func run(_ input: [UInt8], flush: Int32) -> [UInt8] {
            var output: [UInt8] = []
            input.withUnsafeBufferPointer { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                repeat {
                    let produced: Int = chunk.withUnsafeMutableBufferPointer { target in
                        stream.next_out = target.baseAddress
                        stream.avail_out = uInt(target.count)
                        _ = CZlib.deflate(&stream, flush)
                        return target.count - Int(stream.avail_out)
                    }
                    output += chunk[..<produced]
                } while stream.avail_out == 0
            }
            return output
        }
    }

    /// Decompresses a stream piece by piece; `finished` once its trailer has been read.
    public final class Decompressor {
        private var stream = z_stream()
        private var chunk = [UInt8](repeating: 0, count: 64 << 10)
        public private(set) var finished = false

        public init(format: Format) throws(Failure) {
            guard inflateInit2_(&stream, format.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw Failure(description: "zlib could not start an inflate stream")
            }
        }

        deinit { inflateEnd(&stream) }

        public func decompress(_ input: [UInt8]) throws(Failure) -> [UInt8] {
            var output: [UInt8] = []
            var failure: Failure?
            input.withUnsafeBufferPointer { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                while !finished {
                    var status: Int32 = Z_OK
                    let produced: Int = chunk.withUnsafeMutableBufferPointer { target in
                        stream.next_out = target.baseAddress
                        stream.avail_out = uInt(target.count)
                        status = CZlib.inflate(&stream, Z_NO_FLUSH)
                        return target.count - Int(stream.avail_out)
                    }
                    output += chunk[..<produced]
                    if status == Z_STREAM_END {
                        finished = true
                        break
                    }
                    if status == Z_BUF_ERROR || (status == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) { break }
                    if status != Z_OK {
                        failure = Failure(description: "damaged compressed data")
                        break
                    }
                }
            }
            if let failure { throw failure }
            return output
        }
    }

    /// CRC-32 carried on from an earlier value (0 to start).
    public static func crc32(_ bytes: [UInt8], continuing crc: UInt32) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(uLong(crc), $0.baseAddress, uInt($0.count))) }
    }
}
