import Foundation
import Logging

/// One JSON object per line on standard output (through `LogOutput`) (`trove serve --log-format json`), for log collectors:
/// `{"time":"…","level":"info","label":"trove","message":"…","source":"…","hb.request.id":"…",…}` (the metadata's
/// keys in order after the fixed ones).
///
/// Written with `JSONWriter`, not `JSONSerialization` and `ISO8601DateFormatter`: with one line per request those
/// made the server answer `/health` at a third of its rate with text logs (docs/BENCHMARKS.md).
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String

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
        LogOutput.standardOutput.write(line, urgent: event.level >= .warning)
    }

    /// The JSON object of one log line, without its newline.
    static func line(
        time: Date, level: Logger.Level, label: String, message: String, source: String, metadata: Logger.Metadata
    ) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { line in
            line.key("time")
            line.string(timestamp(time))
            line.key("level")
            line.string(level.rawValue)
            line.key("label")
            line.string(label)
            line.key("message")
            line.string(message)
            if !source.isEmpty {
                line.key("source")
                line.string(source)
            }
            for key in metadata.keys.sorted() {
                line.key(named: key)
                line.string("\(metadata[key]!)")
            }
        }
        return writer.bytes
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
}
