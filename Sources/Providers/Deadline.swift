import Synchronization

/// Work with a deadline that answers on time: when the deadline comes first, the work is cancelled and left
/// to end on its own, not awaited (a provider's answer, the readiness check's query).
public enum Deadline {
    public static func race<T: Sendable>(
        nanoseconds: UInt64, timedOut: any Error = ProviderError.timedOut, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let task = Task { try await work() }
        let answer = Answer<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                answer.wait(continuation)
                let timer = Task {
                    try await Task.sleep(nanoseconds: nanoseconds)
                    answer.give(.failure(timedOut))
                    task.cancel()
                }
                Task {
                    let result = await task.result
                    timer.cancel()
                    answer.give(result)
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The one continuation, resumed by whichever side answers first.
    final class Answer<T: Sendable>: Sendable {
        private let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)

        func wait(_ continuation: CheckedContinuation<T, any Error>) {
            self.continuation.withLock { $0 = continuation }
        }

        func give(_ result: Result<T, any Error>) {
            continuation.withLock { $0.take() }?.resume(with: result)
        }
    }
}
