import CoreMetrics
import Foundation
import SQLKit

/// Every query's time and failures, for `/metrics`: `trove_db_query_duration_seconds` and
/// `trove_db_query_errors_total`, each by `kind` (sqlite, postgres) and `op` (read: a SELECT or a read prepared
/// query; write: anything else). Wraps the database the repositories use, and the connection a transaction holds.
struct MeteredDatabase: ForwardingSQLDatabase, BatchedTransactions {
    let base: any SQLDatabase
    private let reads: CoreMetrics.Timer
    private let writes: CoreMetrics.Timer
    private let readErrors: Counter
    private let writeErrors: Counter

    init(base: any SQLDatabase, kind: DatabaseKind) {
        self.base = base
        let name = kind == .sqlite ? "sqlite" : "postgres"
        reads = Timer(
            label: "trove_db_query_duration_seconds", dimensions: [("kind", name), ("op", "read")], preferredDisplayUnit: .seconds)
        writes = Timer(
            label: "trove_db_query_duration_seconds", dimensions: [("kind", name), ("op", "write")], preferredDisplayUnit: .seconds)
        readErrors = Counter(label: "trove_db_query_errors_total", dimensions: [("kind", name), ("op", "read")])
        writeErrors = Counter(label: "trove_db_query_errors_total", dimensions: [("kind", name), ("op", "write")])
    }

    private init(base: any SQLDatabase, from other: MeteredDatabase) {
        self.base = base
        reads = other.reads
        writes = other.writes
        readErrors = other.readErrors
        writeErrors = other.writeErrors
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let read = query is SQLSelect || (query as? PreparedStatement)?.isRead == true
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            try await base.execute(sql: query, onRow)
        } catch {
            (read ? readErrors : writeErrors).increment()
            throw error
        }
        (read ? reads : writes).recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - started))
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let metered = self
        return try await base.withSession { connection in try await closure(MeteredDatabase(base: connection, from: metered)) }
    }

    var batchesTransactions: Bool { (base as? any BatchedTransactions)?.batchesTransactions ?? false }

    func inBatch<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        guard let batched = base as? any BatchedTransactions else { preconditionFailure("check batchesTransactions first") }
        let metered = self
        return try await batched.inBatch { connection in try await body(MeteredDatabase(base: connection, from: metered)) }
    }
}
