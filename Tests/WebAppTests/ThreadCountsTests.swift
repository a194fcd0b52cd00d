import Foundation
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

    /// This process's own mask gives the count `nproc` reports (it asks the scheduler, sched_getaffinity).
    @Test func thisProcessCountsWhatTheSchedulerAllows() throws {
        let nproc = Process()
        nproc.executableURL = URL(fileURLWithPath: "/usr/bin/nproc")
        nproc.arguments = ["--all"]
        var environment = ProcessInfo.processInfo.environment
        environment["OMP_NUM_THREADS"] = nil
        environment["OMP_THREAD_LIMIT"] = nil
        nproc.environment = environment
        let pipe = Pipe()
        nproc.standardOutput = pipe
        try nproc.run()
        nproc.waitUntilExit()
        let installed = try #require(
            Int(
                String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        let allowed = try #require(ThreadCounts.allowedCores())
        #expect((1...installed).contains(allowed))
        // Without --all, nproc counts the cores this process may use, as allowedCores does.
        let mine = Process()
        mine.executableURL = nproc.executableURL
        mine.environment = environment
        let minePipe = Pipe()
        mine.standardOutput = minePipe
        try mine.run()
        mine.waitUntilExit()
        #expect(
            Int(
                String(decoding: minePipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)) == allowed)
    }
}
