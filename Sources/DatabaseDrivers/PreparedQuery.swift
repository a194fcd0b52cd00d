import SQLKit
import Synchronization

/// A statement whose SQL text is written once per dialect and then reused; only its values change.
///
/// SQLKit's builders write a statement's text anew for every query, and for a short SELECT that takes longer
/// than SQLite takes to run it (docs/BENCHMARKS.md). A hot query is built once with the builders, as any
/// other, from placeholders; each call then binds its own values to the kept text. A read
/// (`isRead`) goes to SQLite's readers like any SELECT: a short one (a few rows by key) to a quick reader, run in
/// the calling task with its statement kept; a longer one (`isShort: false`: a list, a count over a table) to the
/// readers that run on NIO's thread pool, so that it holds up no event loop.
public final class PreparedQuery: Sendable {
    public let isRead: Bool
    public let isShort: Bool
    private let build: @Sendable (any SQLDatabase, [SQLBind]) -> any SQLExpression
    /// Per dialect and number of values: the text, and which value each of its placeholders takes.
    private let texts = Mutex<[String: (sql: String, order: [Int])]>([:])

    /// `build` makes the statement from one `SQLBind` per value, in the order `statement(_:on:)` gets them, used
    /// in any order; it may look at how many values there are, but not at what they are.
    public init(isRead: Bool, isShort: Bool = true, build: @escaping @Sendable (any SQLDatabase, [SQLBind]) -> any SQLExpression) {
        self.isRead = isRead
        self.isShort = isShort
        self.build = build
    }

    /// The statement for these values, in the database's dialect.
    public func statement(_ values: [any Encodable & Sendable], on database: any SQLDatabase) -> PreparedStatement {
        // Kept per number of values too, for statements whose length follows their values (a batch insert).
        let key = "\(database.dialect.name) \(values.count)"
        if let kept = texts.withLock({ $0[key] }) {
            return PreparedStatement(sql: kept.sql, binds: kept.order.map { values[$0] }, isRead: isRead, isShort: isShort)
        }
        // Built once from markers naming each value, so the text says where each value goes (a WHERE may name
        // them in another order than the call).
        let (sql, binds) = database.serialize(build(database, values.indices.map { SQLBind(Marker(index: $0)) }))
        let order = binds.compactMap { ($0 as? Marker)?.index }
        // A builder that wrote a value into the text, left one out or bound something else would make the kept text
        // wrong for the next values: such a statement is not kept (and the tests, built for debugging, stop).
        guard order.count == binds.count, Set(order).count == values.count else {
            assertionFailure("a PreparedQuery's builder must bind every value and nothing else: \(sql)")
            let (sql, binds) = database.serialize(build(database, values.map { SQLBind($0) }))
            return PreparedStatement(sql: sql, binds: binds, isRead: isRead, isShort: isShort)
        }
        texts.withLock { $0[key] = (sql, order) }
        return PreparedStatement(sql: sql, binds: order.map { values[$0] }, isRead: isRead, isShort: isShort)
    }

    /// Stands for the value at `index` while the text is written.
    private struct Marker: Encodable, Sendable {
        let index: Int
    }

    /// The statement for these values, ready to run with SQLKit's `first()`, `all()` or `run()`.
    public func fetcher(_ values: [any Encodable & Sendable], on database: any SQLDatabase) -> PreparedFetcher {
        PreparedFetcher(query: statement(values, on: database), database: database)
    }

    public func first(_ values: [any Encodable & Sendable], on database: any SQLDatabase) async throws -> (any SQLRow)? {
        try await fetcher(values, on: database).first()
    }

    public func all(_ values: [any Encodable & Sendable], on database: any SQLDatabase) async throws -> [any SQLRow] {
        try await fetcher(values, on: database).all()
    }

    public func run(_ values: [any Encodable & Sendable], on database: any SQLDatabase) async throws {
        try await fetcher(values, on: database).run()
    }
}

/// Lends a prepared statement SQLKit's fetching methods.
public final class PreparedFetcher: SQLQueryFetcher {
    public let query: any SQLExpression
    public let database: any SQLDatabase

    init(query: any SQLExpression, database: any SQLDatabase) {
        self.query = query
        self.database = database
    }
}

/// A `PreparedQuery`'s text with one call's values.
public struct PreparedStatement: SQLExpression {
    let sql: String
    let binds: [any Encodable & Sendable]
    public let isRead: Bool
    public let isShort: Bool

    public func serialize(to serializer: inout SQLSerializer) {
        serializer.write(sql)
        serializer.binds.append(contentsOf: binds)
    }
}
