import Foundation
import NIOCore

/// Sizes NIO's event loops and thread pool by the cores this process may run on.
///
/// NIO counts the machine's cores, less a cgroup CPU quota, but not the CPU set the process was started
/// with (`taskset`, a container's `--cpuset-cpus`). A server held to one core of two then ran four threads
/// on it (two event loops and two pool threads for SQLite), and switching between them cost about a tenth of
/// its requests per second (docs/BENCHMARKS.md). NIO's own environment variables still win.
public enum ThreadCounts {
    public static func fitToAllowedCores() {
        guard let allowed = allowedCores(), allowed < System.coreCount else { return }
        let environment = ProcessInfo.processInfo.environment
        if environment["NIO_SINGLETON_GROUP_LOOP_COUNT"] == nil {
            NIOSingletons.groupLoopCountSuggestion = allowed
        }
        if environment["NIO_SINGLETON_BLOCKING_POOL_THREAD_COUNT"] == nil {
            NIOSingletons.blockingPoolThreadCountSuggestion = allowed
        }
    }

    /// How many cores the scheduler may put this process on (Linux's `Cpus_allowed` mask); nil where that
    /// cannot be read.
    static func allowedCores(status: String? = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) -> Int? {
        guard let line = status?.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        var count = 0
        for character in line.dropFirst("Cpus_allowed:".count) where character != "," && character != " " && character != "\t" {
            guard let digit = character.hexDigitValue else { return nil }
            count += digit.nonzeroBitCount
        }
        return count > 0 ? count : nil
    }
}
