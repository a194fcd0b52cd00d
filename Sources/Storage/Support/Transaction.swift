import SQLKit

extension SQLDatabase {
    /// Runs `body` in one transaction on one connection: everything it writes lands, or nothing does.
    public func transaction<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await withSession { connection in
            // IMMEDIATE takes SQLite's write lock up front, so two writers wait instead of failing mid-way.
            let begin = connection.dialect.name == "sqlite" ? "BEGIN IMMEDIATE" : "BEGIN"
            try await connection.raw(SQLQueryString(begin)).run()
            do {
                let result = try await body(connection)
                try await connection.raw("COMMIT").run()
                return result
            } catch {
                try? await connection.raw("ROLLBACK").run()
                throw error
            }
        }
    }
}
