import Foundation
import Synchronization
import Testing

@testable import WebApp

/// The one cache of values read from the database (the deck, the city catalog).
@Suite struct ReloadableCacheTests {
    /// Counts loads and answers the load's number; `current` says whether a held value is still current.
    final class Source: Sendable {
        let loads = Mutex(0)
        let current = Mutex(true)
        let failing = Mutex(false)

        func load() async throws -> Int {
            try await Task.sleep(for: .milliseconds(20))
            if failing.withLock({ $0 }) { throw CancellationError() }
            return loads.withLock { count in
                count += 1
                return count
            }
        }
    }

    @Test func concurrentRequestsWaitForOneLoad() async throws {
        let source = Source()
        let cache = ReloadableCache(recheckInterval: 60) { try await source.load() }
        #expect(!cache.isLoaded)
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await cache.value() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: 1, count: 20))
        #expect(source.loads.withLock { $0 } == 1 && cache.isLoaded)
    }

    @Test func aValueIsCheckedOnlyAfterTheIntervalAndLoadedAgainOnlyWhenNotCurrent() async throws {
        let source = Source()
        let cache = ReloadableCache(recheckInterval: 60) { _ in
            source.current.withLock { $0 }
        } load: {
            try await source.load()
        }
        let start = Date()
        #expect(try await cache.value(now: start) == 1)
        // Still current after the interval: the held value stays.
        #expect(try await cache.value(now: start.addingTimeInterval(61)) == 1)
        source.current.withLock { $0 = false }
        // Within the interval of the last check, nothing is asked.
        #expect(try await cache.value(now: start.addingTimeInterval(100)) == 1)
        #expect(try await cache.value(now: start.addingTimeInterval(122)) == 2)
        #expect(source.loads.withLock { $0 } == 2)
    }

    @Test func withoutACheckTheValueIsReadAgainAfterTheInterval() async throws {
        let source = Source()
        let cache = ReloadableCache(recheckInterval: 30) { try await source.load() }
        let start = Date()
        #expect(try await cache.value(now: start) == 1)
        #expect(try await cache.value(now: start.addingTimeInterval(29)) == 1)
        #expect(try await cache.value(now: start.addingTimeInterval(31)) == 2)
    }

    @Test func aFailedLoadIsLeftToTheNextRequest() async throws {
        let source = Source()
        source.failing.withLock { $0 = true }
        let cache = ReloadableCache(recheckInterval: 60) { try await source.load() }
        await #expect(throws: CancellationError.self) { try await cache.value() }
        #expect(!cache.isLoaded)
        source.failing.withLock { $0 = false }
        #expect(try await cache.value() == 1)
    }
}
