import Foundation

/// Stops asking a provider that keeps failing: after failures at `threshold` different places within `window`
/// seconds, with no success between them, it opens for `pause` seconds, during which callers are told at once
/// instead of each waiting for a timeout; then one call is let through, and its outcome closes the breaker or
/// opens it again. Failures at one place only (a provider that cannot answer for one point) never open it.
struct CircuitBreaker<Place: Hashable & Sendable>: Sendable {
    var threshold = 3
    var window: TimeInterval = 60
    var pause: TimeInterval = 30

    private var failures: [(at: Date, place: Place)] = []
    private var openUntil: Date?
    private var trial = false

    /// Nil when a call may go out; otherwise the seconds until the breaker lets one through.
    mutating func wait(at now: Date) -> TimeInterval? {
        guard pause > 0, let until = openUntil else { return nil }
        if now < until { return until.timeIntervalSince(now) }
        if trial { return pause }  // the one trial call is still out
        trial = true
        return nil
    }

    mutating func recordSuccess() {
        failures.removeAll()
        openUntil = nil
        trial = false
    }

    mutating func recordFailure(at now: Date, place: Place) {
        if trial {
            trial = false
            openUntil = now.addingTimeInterval(pause)
            return
        }
        failures = failures.filter { now.timeIntervalSince($0.at) < window } + [(now, place)]
        if Set(failures.map(\.place)).count >= threshold {
            failures.removeAll()
            openUntil = now.addingTimeInterval(pause)
        }
    }
}
