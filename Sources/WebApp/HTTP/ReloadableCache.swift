import Foundation
import Synchronization

/// A value read from the database and held in memory (the Oblique Strategies deck, the city catalog), so requests
/// need no query, and read again when the database has a newer one: an import by `trove import …` shows on running
/// servers without a restart.
///
/// At most every `recheckInterval` a request asks `isCurrent` of the value it holds (the city catalog compares the
/// import stamp; by default the value is simply read again); a value that is not current is loaded anew, and
/// requests arriving meanwhile wait for that one load instead of starting their own. Reading takes a lock, not an
/// actor hop: with an actor, 64 concurrent page views queued behind one another and a few waited over a second.
final class ReloadableCache<Value: Sendable>: Sendable {
    private let recheckInterval: TimeInterval
    private let isCurrent: @Sendable (Value) async throws -> Bool
    private let load: @Sendable () async throws -> Value
    private let state = Mutex<State>(State())

    private struct State {
        var value: Value?
        var checkedAt = Date.distantPast
        /// The check or load in progress.
        var refresh: Task<Value, any Error>?
    }

    init(
        recheckInterval: TimeInterval, isCurrent: @escaping @Sendable (Value) async throws -> Bool = { _ in false },
        load: @escaping @Sendable () async throws -> Value
    ) {
        self.recheckInterval = recheckInterval
        self.isCurrent = isCurrent
        self.load = load
    }

    /// Whether a value has been loaded (readiness: until then requests wait for the first load).
    var isLoaded: Bool { state.withLock { $0.value != nil } }

    /// Starts the first load now rather than at the first request; a failure leaves it to the next request.
    func warmUp() {
        Task { _ = try? await self.value() }
    }

    private enum Step {
        case ready(Value)
        case wait(Task<Value, any Error>)
    }

    func value(now: Date = Date()) async throws -> Value {
        let next: Step = state.withLock { state in
            if let value = state.value, now.timeIntervalSince(state.checkedAt) < recheckInterval { return .ready(value) }
            if let refresh = state.refresh { return .wait(refresh) }
            let held = state.value
            let task = Task { [isCurrent, load] in
                if let held, try await isCurrent(held) { return held }
                return try await load()
            }
            state.refresh = task
            return .wait(task)
        }
        let step: Task<Value, any Error>
        switch next {
        case .ready(let value): return value
        case .wait(let task): step = task
        }
        do {
            let value = try await step.value
            state.withLock { state in
                if state.refresh == step {
                    state.value = value
                    state.checkedAt = now
                    state.refresh = nil
                }
            }
            return value
        } catch {
            state.withLock { state in if state.refresh == step { state.refresh = nil } }
            throw error
        }
    }
}
