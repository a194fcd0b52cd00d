import DatabaseDrivers
import Foundation
import SQLKit
import TestSupport
import Testing

/// Which database failures count as an outage (the HTTP layer answers 503) and which are the query's own fault.
@Suite struct DatabaseOutageTests {
    @Test func aLostPostgresConnectionIsAnOutageAndTheNextQueryReconnects() async throws {
        try await TestDatabase.with(.postgres, migrate: false) { database in
            let error = await #expect(throws: (any Error).self) {
                try await database.sql.raw("SELECT pg_terminate_backend(pg_backend_pid())").run()
            }
            let caught = try #require(error)
            #expect(DatabaseOutage(caught) == .unreachable)
            try await database.sql.raw("SELECT 1").run()
        }
    }

    @Test func aReadOnlySQLiteDatabaseIsAnOutage() async throws {
        try await TestDatabase.with(.sqlite, migrate: false) { database in
            try await database.sql.raw("PRAGMA query_only = ON").run()
            let error = await #expect(throws: (any Error).self) {
                try await database.sql.raw("CREATE TABLE t (x INTEGER)").run()
            }
            let caught = try #require(error)
            #expect(DatabaseOutage(caught) == .readOnly)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aQueryOfItsOwnFaultIsNot(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind, migrate: false) { database in
            let error = await #expect(throws: (any Error).self) {
                try await database.sql.raw("SELECT * FROM no_such_table").run()
            }
            let caught = try #require(error)
            #expect(DatabaseOutage(caught) == nil)
        }
        #expect(DatabaseOutage(CocoaError(.fileReadNoPermission)) == nil)
    }
}
