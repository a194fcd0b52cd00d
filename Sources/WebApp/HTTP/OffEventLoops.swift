import Dispatch

/// Runs CPU-heavy work (building the city catalog, inflating an uploaded zip, drawing a card's picture) on a
/// Dispatch thread: `trove serve` runs Swift concurrency's tasks on the event loops that also answer
/// requests, which must not stall behind it.
func offEventLoops<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: work()) }
    }
}

/// The same for work that can fail.
func offEventLoops<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
