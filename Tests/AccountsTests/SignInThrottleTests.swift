import Accounts
import Foundation
import Testing

@Suite struct SignInThrottleTests {
    let now = Date(timeIntervalSince1970: 1_000_000)
    let throttle = SignInThrottle(maximumFailures: 5, window: 900)

    @Test func allowsFewerFailuresThanTheLimitAndSaysHowManyMore() throws {
        #expect(try throttle.check(recentFailures: (1...4).map { now.addingTimeInterval(-Double($0)) }, now: now) == 1)
        #expect(try throttle.check(recentFailures: [], now: now) == 5)
    }

    @Test func refusesAtTheLimitUntilTheOldestCountedFailureLeavesTheWindow() {
        let failures = [100.0, 200, 300, 400, 500].map { now.addingTimeInterval(-$0) }
        // The oldest of the five is 500 s old: it leaves the 900 s window in 400 s.
        #expect(throws: AccountError.tooManyAttempts(retryAfterSeconds: 400)) {
            try throttle.check(recentFailures: failures, now: now)
        }
    }

    @Test func ignoresFailuresOutsideTheWindow() throws {
        let failures = [100.0, 200, 300, 400, 1000, 2000].map { now.addingTimeInterval(-$0) }
        try throttle.check(recentFailures: failures, now: now)
    }
}
