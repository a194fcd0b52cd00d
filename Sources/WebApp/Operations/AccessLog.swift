import Foundation
import Synchronization

/// The access log: one line per answered request (method, path, status, time taken, request id), in the server's
/// log format — swift-log's text line or `JSONLogHandler`'s JSON object, as if logged at info from WebApp with the
/// message "Request" — written straight into `LogOutput`'s buffer.
///
/// Made by hand because going through swift-log cost each request about two dozen allocations (a metadata
/// dictionary, its merge, sort and print, the time formatted anew), most of what the cheapest request paid over a
/// bare Hummingbird route (docs/BENCHMARKS.md). The time is formatted once per second.
final class AccessLog: Sendable {
    struct Entry {
        let method: String
        let path: String
        let status: Int
        let microseconds: UInt64
        let requestID: String
    }

    let format: LogFormat
    let label: String
    let output: LogOutput
    private let stamps = Mutex<Stamp>(Stamp())

    init(format: LogFormat, label: String = "trove", output: LogOutput = .standardOutput) {
        self.format = format
        self.label = label
        self.output = output
    }

    func record(_ entry: Entry) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        output.write(urgent: false) { buffer in
            stamps.withLock { stamp in
                stamp.update(second: now.tv_sec, format: format)
                Self.append(entry, format: format, label: label, stamp: stamp.bytes, milliseconds: now.tv_nsec / 1_000_000, to: &buffer)
            }
        }
    }

    /// The line, with its newline. `stamp` is the time to the second in the format's style; JSON adds milliseconds.
    static func append(
        _ entry: Entry, format: LogFormat, label: String, stamp: [UInt8], milliseconds: Int, to buffer: inout [UInt8]
    ) {
        switch format {
        case .text:
            // swift-log's StreamLogHandler: "<time> info <label>: <key=value, sorted> [<source>] <message>".
            buffer.append(contentsOf: stamp)
            buffer.append(contentsOf: " info ".utf8)
            buffer.append(contentsOf: label.utf8)
            buffer.append(contentsOf: ": hb.request.duration_us=".utf8)
            appendDecimal(entry.microseconds, to: &buffer)
            buffer.append(contentsOf: " hb.request.id=".utf8)
            buffer.append(contentsOf: entry.requestID.utf8)
            buffer.append(contentsOf: " hb.request.method=".utf8)
            buffer.append(contentsOf: entry.method.utf8)
            buffer.append(contentsOf: " hb.request.path=".utf8)
            buffer.append(contentsOf: entry.path.utf8)
            buffer.append(contentsOf: " hb.response.status=".utf8)
            appendDecimal(UInt64(entry.status), to: &buffer)
            buffer.append(contentsOf: " [WebApp] Request\n".utf8)
        case .json:
            // JSONLogHandler's object: the fixed fields, then the metadata's keys in order, every value a string.
            buffer.append(contentsOf: #"{"time":""#.utf8)
            buffer.append(contentsOf: stamp)
            buffer.append(UInt8(ascii: "."))
            appendDecimal(UInt64(milliseconds), to: &buffer, digits: 3)
            buffer.append(contentsOf: #"Z","level":"info","label":""#.utf8)
            JSONWriter.appendEscaped(label, to: &buffer)
            buffer.append(contentsOf: #"","message":"Request","source":"WebApp","hb.request.duration_us":""#.utf8)
            appendDecimal(entry.microseconds, to: &buffer)
            buffer.append(contentsOf: #"","hb.request.id":""#.utf8)
            JSONWriter.appendEscaped(entry.requestID, to: &buffer)
            buffer.append(contentsOf: #"","hb.request.method":""#.utf8)
            JSONWriter.appendEscaped(entry.method, to: &buffer)
            buffer.append(contentsOf: #"","hb.request.path":""#.utf8)
            JSONWriter.appendEscaped(entry.path, to: &buffer)
            buffer.append(contentsOf: #"","hb.response.status":""#.utf8)
            appendDecimal(UInt64(entry.status), to: &buffer)
            buffer.append(contentsOf: "\"}\n".utf8)
        }
    }

    /// `value` in decimal, padded with zeros to `digits`.
    static func appendDecimal(_ value: UInt64, to buffer: inout [UInt8], digits: Int = 1) {
        var divisor: UInt64 = 1
        var width = 1
        while width < digits || value / divisor >= 10 {
            divisor *= 10
            width += 1
        }
        var rest = value
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// The time to the second, formatted when the second changes: local time with its offset for text
    /// ("2026-11-27T05:44:28+0000", as swift-log writes it), UTC for JSON ("2026-11-27T05:44:28", then ".mmmZ").
    struct Stamp {
        var second: Int = -1
        var bytes: [UInt8] = []

        mutating func update(second now: Int, format: LogFormat) {
            guard now != second else { return }
            second = now
            var time = time_t(now)
            var parts = tm()
            var text = [CChar](repeating: 0, count: 64)
            switch format {
            case .text:
                localtime_r(&time, &parts)
                strftime(&text, text.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
            case .json:
                gmtime_r(&time, &parts)
                strftime(&text, text.count, "%Y-%m-%dT%H:%M:%S", &parts)
            }
            bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        }
    }
}
