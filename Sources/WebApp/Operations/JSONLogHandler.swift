import Foundation
import Logging

/// One JSON object per line on standard output (`trove serve --log-format json`), for log collectors:
/// `{"time":"…","level":"info","label":"trove","message":"…","source":"…","hb.request.id":"…",…}` (the metadata's
/// keys in order after the fixed ones).
///
/// Written by hand, not through `JSONSerialization` and `ISO8601DateFormatter`: with one line per request those
/// made the server answer `/health` at a third of its rate with text logs (docs/BENCHMARKS.md).
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String
    static let lock = NSLock()

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = Self.line(
            time: Date(), level: event.level, label: label, message: "\(event.message)", source: event.source,
            metadata: event.metadata.map { metadata.merging($0, uniquingKeysWith: { _, new in new }) } ?? metadata)
        line.append(0x0A)
        Self.lock.lock()
        defer { Self.lock.unlock() }
        FileHandle.standardOutput.write(Data(line))
    }

    /// The JSON object of one log line, without its newline.
    static func line(
        time: Date, level: Logger.Level, label: String, message: String, source: String, metadata: Logger.Metadata
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        func field(_ key: String, _ value: String) {
            out.append(out.isEmpty ? UInt8(ascii: "{") : UInt8(ascii: ","))
            appendJSONString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendJSONString(value, to: &out)
        }
        field("time", timestamp(time))
        field("level", level.rawValue)
        field("label", label)
        field("message", message)
        if !source.isEmpty { field("source", source) }
        for key in metadata.keys.sorted() { field(key, "\(metadata[key]!)") }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// "2026-11-26T12:40:05.123Z": UTC, milliseconds.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = Int(milliseconds % 1000)
        let millis = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):"
            + "\(two(parts.tm_sec)).\(millis)Z"
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped; other characters as UTF-8.
    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
