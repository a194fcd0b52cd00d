import Foundation

/// The rule for throttling failed sign-ins to one username (or from one client): after `maximumFailures` failures within
/// `window`, further attempts are refused until the oldest of them leaves the window.
public struct SignInThrottle: Sendable {
    public let maximumFailures: Int
    public let window: TimeInterval

    /// One client address trying many usernames: 20 failures in 15 minutes, whatever the usernames.
    public static let perClient = SignInThrottle(maximumFailures: 20, window: 15 * 60)

    public init(maximumFailures: Int = 5, window: TimeInterval = 15 * 60) {
        self.maximumFailures = maximumFailures
        self.window = window
    }

    /// The start of the window that matters at `now`.
    public func windowStart(now: Date) -> Date { now.addingTimeInterval(-window) }

    /// Throws when the recent failures (timestamps inside the window, any order) already reach the limit; else
    /// answers how many more may fail before it is reached.
    @discardableResult
    public func check(recentFailures: [Date], now: Date) throws(AccountError) -> Int {
        let inWindow = recentFailures.filter { $0 > windowStart(now: now) }.sorted()
        guard inWindow.count >= maximumFailures else { return maximumFailures - inWindow.count }
        let oldestCounted = inWindow[inWindow.count - maximumFailures]
        let retryAfter = oldestCounted.addingTimeInterval(window).timeIntervalSince(now)
        throw .tooManyAttempts(retryAfterSeconds: max(1, Int(retryAfter.rounded(.up))))
    }
}
