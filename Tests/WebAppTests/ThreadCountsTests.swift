import Testing
@testable import WebApp

/// The cores a process may run on, as Linux's /proc/self/status says.
@Suite struct ThreadCountsTests {
    @Test func countsTheCoresOfTheMask() {
        #expect(ThreadCounts.allowedCores(status: "Name:\ttrove\nCpus_allowed:\t1\nCpus_allowed_list:\t0\n") == 1)
        #expect(ThreadCounts.allowedCores(status: "Cpus_allowed:\t3\n") == 2)
        #expect(ThreadCounts.allowedCores(status: "Cpus_allowed:\tff,00000f0f\n") == 16)
    }

    @Test func answersNothingWhenTheMaskIsMissingOrOdd() {
        #expect(ThreadCounts.allowedCores(status: nil) == nil)
        #expect(ThreadCounts.allowedCores(status: "Name:\ttrove\n") == nil)
        #expect(ThreadCounts.allowedCores(status: "Cpus_allowed:\t0\n") == nil)
        #expect(ThreadCounts.allowedCores(status: "Cpus_allowed:\txyz\n") == nil)
    }

    @Test func thisProcessMayRunSomewhere() {
        #expect((ThreadCounts.allowedCores() ?? 1) >= 1)
    }
}
