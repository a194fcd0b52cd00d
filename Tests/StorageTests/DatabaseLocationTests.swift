import DatabaseDrivers
import Foundation
import Logging
import Testing

@Suite struct DatabaseLocationTests {
    @Test func parsesEveryAcceptedForm() throws {
        #expect(try DatabaseLocation(parsing: "./data/x.sqlite") == .sqlite(path: "./data/x.sqlite"))
        #expect(try DatabaseLocation(parsing: "sqlite:/tmp/x.db") == .sqlite(path: "/tmp/x.db"))
        #expect(try DatabaseLocation(parsing: "postgres://u:p@h:5432/db") == .postgres(url: "postgres://u:p@h:5432/db"))
        #expect(try DatabaseLocation(parsing: "postgresql://h/db").kind == .postgres)
    }

    @Test(arguments: ["mysql://h/db", "postgres://", "sqlite:", ""])
    func refusesMalformedLocations(_ text: String) {
        #expect(throws: DatabaseConfigurationError.self) { try DatabaseLocation(parsing: text) }
    }

    @Test func hidesPasswordsInMessages() throws {
        #expect(try DatabaseLocation(parsing: "postgres://u:secret@h/db").redacted == "postgres://u:***@h/db")
    }

    @Test func reportsAnUnwritableFolderInOneLine() async throws {
        await #expect(throws: DatabaseConfigurationError.unwritableFolder("/proc/trove")) {
            _ = try await Database.open(.sqlite(path: "/proc/trove/x.sqlite"), logger: Logger(label: "test"))
        }
    }

    @Test func reportsAnUnreachablePostgres() async throws {
        do {
            _ = try await Database.open(.postgres(url: "postgres://trove@127.0.0.1:1/none"), logger: Logger(label: "test"))
            Issue.record("opening an unreachable database succeeded")
        } catch {
            guard case .unreachable(let location, _) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(location == "postgres://trove@127.0.0.1:1/none")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func enablesForeignKeysAndWALOnSQLite() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trove-pragma-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try await Database.open(.sqlite(path: path), logger: Logger(label: "test"))
        let foreignKeys = try await database.sql.raw("PRAGMA foreign_keys").first()?.decode(column: "foreign_keys", as: Int.self)
        let journal = try await database.sql.raw("PRAGMA journal_mode").first()?.decode(column: "journal_mode", as: String.self)
        await database.shutdown()
        #expect(foreignKeys == 1)
        #expect(journal == "wal")
    }
}
