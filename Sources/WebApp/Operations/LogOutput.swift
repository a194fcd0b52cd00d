import Foundation
import Logging
import Synchronization

/// Where `trove serve` writes its log lines: standard output through a buffer, written out every 100 ms, whenever
/// it holds 32 KB, and at once after a warning or worse. swift-log's stream handler makes one `write` per line, and
/// with a line per request that cost the cheapest request about a seventh of its rate (docs/BENCHMARKS.md). A crash
/// can lose at most the last 100 ms of request lines, never a warning or an error: those are written before the
/// call that logged them returns.
public final class LogOutput: Sendable {
    public static let standardOutput = LogOutput(fileDescriptor: STDOUT_FILENO, flushInterval: 0.1)

    static let bufferBytes = 32 * 1024

    private let fileDescriptor: Int32
    private let flushInterval: TimeInterval?
    private let pending = Mutex<Pending>(Pending())

    private struct Pending {
        var bytes: [UInt8] = []
        var flusherStarted = false
    }

    /// `flushInterval` nil: written out only when full, urgent or flushed (tests).
    init(fileDescriptor: Int32, flushInterval: TimeInterval?) {
        self.fileDescriptor = fileDescriptor
        self.flushInterval = flushInterval
    }

    /// Adds one line (with its newline); `urgent` writes it, and everything before it, at once.
    func write(_ line: some Collection<UInt8>, urgent: Bool) {
        write(urgent: urgent) { $0.append(contentsOf: line) }
    }

    /// Adds what `append` appends to the buffer (one or more whole lines), under the buffer's lock.
    func write(urgent: Bool, _ append: (inout [UInt8]) -> Void) {
        let startFlusher = pending.withLock { pending in
            append(&pending.bytes)
            if urgent || pending.bytes.count >= Self.bufferBytes { writeOut(&pending.bytes) }
            defer { pending.flusherStarted = true }
            return !pending.flusherStarted && flushInterval != nil
        }
        if startFlusher, let flushInterval {
            Thread.detachNewThread { [self] in
                while true {
                    Thread.sleep(forTimeInterval: flushInterval)
                    flush()
                }
            }
        }
    }

    /// Writes out whatever is buffered (the timer, and `trove serve` as it stops).
    public func flush() {
        pending.withLock { writeOut(&$0.bytes) }
    }

    /// Under the lock, so chunks reach the file in the order their lines were logged.
    private func writeOut(_ buffer: inout [UInt8]) {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // Nowhere to write (a closed standard output): the lines are dropped, the server goes on.
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// swift-log's text stream, written through this buffer.
    struct Stream: TextOutputStream, Sendable {
        let output: LogOutput
        mutating func write(_ string: String) { output.write(string.utf8, urgent: false) }
    }
}

/// swift-log's own text format (`trove serve`'s default), written through `LogOutput`.
///
/// The metadata is kept here and handed to `StreamLogHandler` with each line: its own metadata setter formats the
/// whole dictionary at once, and Hummingbird sets the request id on every request's logger (about 3% of a
/// `/health` in perf), while most requests log nothing.
public struct TextLogHandler: LogHandler {
    private var lines: StreamLogHandler
    private let output: LogOutput
    public var metadata: Logger.Metadata = [:]

    public init(label: String) {
        self.init(label: label, output: .standardOutput)
    }

    init(label: String, output: LogOutput) {
        self.output = output
        self.lines = StreamLogHandler(label: label, stream: LogOutput.Stream(output: output))
    }

    public var logLevel: Logger.Level {
        get { lines.logLevel }
        set { lines.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            event.metadata = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, line in line })
        }
        lines.log(event: event)
        if event.level >= .warning { output.flush() }
    }
}

/// How `trove serve` writes its log lines (`--log-format`).
public enum LogFormat: String, Sendable {
    /// swift-log's text lines.
    case text
    /// One JSON object per line (`JSONLogHandler`).
    case json
}
