import DatabaseDrivers
import Foundation
import SQLKit
import TestSupport
import Testing

/// A PreparedQuery's text is written once; every call must still get its own values' rows.
@Suite struct PreparedQueryTests {
    static let byName = PreparedQuery(isRead: true) { database, values in
        database.select().columns("id", "name").from("notes").where("name", .equal, values[0]).where("id", .greaterThan, values[1])
            .orderBy("id").select
    }
    static let add = PreparedQuery(isRead: false) { database, values in
        database.insert(into: "notes").columns("id", "name").values(values[0], values[1]).insert
    }

    @Test(arguments: DatabaseKind.allCases)
    func eachCallReadsWithItsOwnValues(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind, migrate: false) { database in
            let sql = database.sql
            try await sql.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, name TEXT NOT NULL)").run()
            for (id, name) in [(1, "a"), (2, "b"), (3, "a"), (4, "a")] {
                try await Self.add.run([id, name], on: sql)
            }
            let first = try #require(try await Self.byName.first(["a", 1], on: sql))
            #expect(try first.decode(column: "id", as: Int.self) == 3)
            #expect(try await Self.byName.all(["a", 0], on: sql).map { try $0.decode(column: "id", as: Int.self) } == [1, 3, 4])
            #expect(try await Self.byName.all(["b", 0], on: sql).count == 1)
            #expect(try await Self.byName.first(["c", 0], on: sql) == nil)
            // A value that looks like SQL is a value.
            try await Self.add.run([5, "x' OR '1'='1"], on: sql)
            #expect(try await Self.byName.all(["x' OR '1'='1", 0], on: sql).count == 1)
            #expect(try await Self.byName.all(["' OR ''='", 0], on: sql).isEmpty)
        }
    }

    /// Values named in another order than the call gives them, and one of them twice.
    static let byIDThenName = PreparedQuery(isRead: true) { database, values in
        database.select().columns("id").from("notes").where("id", .greaterThan, values[1]).where("name", .equal, values[0])
            .where("id", .lessThan, SQLBinaryExpression(values[1], .add, SQLLiteral.numeric("3"))).orderBy("id").select
    }

    @Test(arguments: DatabaseKind.allCases)
    func valuesGoWhereTheTextNamesThemInAnyOrder(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind, migrate: false) { database in
            let sql = database.sql
            try await sql.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, name TEXT NOT NULL)").run()
            for (id, name) in [(1, "a"), (2, "b"), (3, "a"), (4, "a"), (5, "a")] { try await Self.add.run([id, name], on: sql) }
            // The first call writes the text; the later ones reuse it with their own values.
            for _ in 0..<3 {
                #expect(try await Self.byIDThenName.all(["a", 1], on: sql).map { try $0.decode(column: "id", as: Int.self) } == [3])
                #expect(try await Self.byIDThenName.all(["a", 2], on: sql).map { try $0.decode(column: "id", as: Int.self) } == [3, 4])
                #expect(try await Self.byIDThenName.all(["b", 0], on: sql).map { try $0.decode(column: "id", as: Int.self) } == [2])
            }
        }
    }

    static let addMany = PreparedQuery(isRead: false) { database, values in
        var insert = database.insert(into: "notes").columns("id", "name")
        for start in stride(from: 0, to: values.count, by: 2) { insert = insert.values([values[start], values[start + 1]]) }
        return insert.insert
    }

    @Test(arguments: DatabaseKind.allCases)
    func aBatchOfAnotherSizeGetsItsOwnText(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind, migrate: false) { database in
            let sql = database.sql
            try await sql.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, name TEXT NOT NULL)").run()
            try await Self.addMany.run([1, "a", 2, "b"], on: sql)
            try await Self.addMany.run([3, "c"], on: sql)
            try await Self.addMany.run([4, "d", 5, "e", 6, "f"], on: sql)
            try await Self.addMany.run([7, "g", 8, "h"], on: sql)
            let rows = try await sql.select().columns("id", "name").from("notes").orderBy("id").all()
            #expect(try rows.map { try $0.decode(column: "name", as: String.self) } == ["a", "b", "c", "d", "e", "f", "g", "h"])
        }
    }

    @Test func aReadGoesToSQLitesReadersAndAWriteDoesNot() async throws {
        try await TestDatabase.with(.sqlite, migrate: false) { database in
            let sql = database.sql
            try await sql.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, name TEXT NOT NULL)").run()
            #expect(Self.byName.statement(["a", 0], on: sql).isRead)
            #expect(!Self.add.statement([1, "a"], on: sql).isRead)
            // Readers are read-only: had the insert gone to one, it would have failed.
            try await Self.add.run([1, "a"], on: sql)
            #expect(try await Self.byName.all(["a", 0], on: sql).count == 1)
        }
    }
}
