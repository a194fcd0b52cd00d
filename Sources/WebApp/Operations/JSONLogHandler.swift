import Foundation
import Logging

/// One JSON object per line on standard output (`trove serve --log-format json`), for log collectors:
/// `{"time":"…","level":"info","label":"trove","message":"…","hb.request.id":"…",…}`.
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
        var fields: [String: String] = [
            "time": ISO8601DateFormatter.string(
                from: Date(), timeZone: TimeZone(identifier: "UTC")!,
                formatOptions: [.withInternetDateTime, .withFractionalSeconds]),
            "level": event.level.rawValue, "label": label, "message": "\(event.message)",
        ]
        if !event.source.isEmpty { fields["source"] = event.source }
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) { fields[key] = "\(value)" }
        guard var line = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return
        }
        line.append(0x0A)
        Self.lock.lock()
        defer { Self.lock.unlock() }
        FileHandle.standardOutput.write(line)
    }
}
