import DatabaseDrivers
import Foundation
import SQLKit
import Storage
import TestSupport
import Testing
import YogiYogini

/// A keyed write and its recorded answer commit together (issue 64): stopped at any point, the retry leaves exactly
/// one row and gets the first answer, on both databases.
@Suite struct IdempotencyRepositoryTests {
    struct Injected: Error {}

    static let answer = IdempotencyRepository.Answer(status: 201, contentType: "application/json", body: Data(#"{"id":"s1"}"#.utf8))

    /// Creates student `s1` through the roster's own repository (which joins the key's transaction), as a handler does.
    static func createStudent(_ database: Database, profileID: String, failAfterWrite: Bool = false) async throws
        -> (String, IdempotencyRepository.Answer?)
    {
        let student = Student(id: "s1", name: "Asha", joinedOn: "2026-01-05", active: true, typeID: nil, notes: "")
        _ = try await YogaRosterRepository(database: database.sql).createStudent(student, profileID: profileID)
        if failAfterWrite { throw Injected() }
        return ("created", answer)
    }

    /// An outcome in words, for comparing.
    static func label(_ outcome: IdempotencyRepository.Outcome<String>) -> String {
        switch outcome {
        case .ran(let value): "ran \(value)"
        case .reused: "reused"
        case .answered(let answer): "answered \(String(decoding: answer.body, as: UTF8.self))"
        }
    }

    static func studentCount(_ database: Database, profileID: String) async throws -> Int {
        try await YogaRosterRepository(database: database.sql).students(profileID: profileID).count
    }

    @Test(arguments: DatabaseKind.allCases)
    func aKeyedWriteStoppedAtAnyPointLeavesOneRowAndTheFirstAnswer(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let profile = try await ProfileRepository(database: database.sql).createGuest()
            let keys = IdempotencyRepository(database: database.sql)

            // Stopped before the handler's write: nothing is kept, the key stays free.
            await #expect(throws: Injected.self) {
                try await keys.once(profileID: profile.id, key: "k", fingerprint: "f") { () -> (String, IdempotencyRepository.Answer?) in
                    throw Injected()
                }
            }
            #expect(try await Self.studentCount(database, profileID: profile.id) == 0)

            // Stopped after the handler's write, before its answer is kept: the write is rolled back with the claim.
            await #expect(throws: Injected.self) {
                try await keys.once(profileID: profile.id, key: "k", fingerprint: "f") {
                    try await Self.createStudent(database, profileID: profile.id, failAfterWrite: true)
                }
            }
            #expect(try await Self.studentCount(database, profileID: profile.id) == 0)

            // The answer's own statement fails: the same.
            let failing = FailingDatabase(base: database.sql) { $0.contains("UPDATE") && $0.contains("idempotency_keys") }
            await #expect(throws: FailingDatabase.Injected.self) {
                try await IdempotencyRepository(database: failing).once(profileID: profile.id, key: "k", fingerprint: "f") {
                    try await Self.createStudent(database, profileID: profile.id)
                }
            }
            #expect(try await Self.studentCount(database, profileID: profile.id) == 0)

            // A server error keeps no answer, and what it wrote is rolled back.
            let failed = try await keys.once(profileID: profile.id, key: "k", fingerprint: "f") {
                () -> (String, IdempotencyRepository.Answer?) in
                _ = try await Self.createStudent(database, profileID: profile.id)
                return ("500", nil)
            }
            #expect(Self.label(failed) == "ran 500")
            #expect(try await Self.studentCount(database, profileID: profile.id) == 0)

            // The retry runs as new; once both are committed, every later retry gets the first answer and writes nothing.
            let first = try await keys.once(profileID: profile.id, key: "k", fingerprint: "f") {
                try await Self.createStudent(database, profileID: profile.id)
            }
            #expect(Self.label(first) == "ran created")
            for _ in 0..<2 {
                let again = try await keys.once(profileID: profile.id, key: "k", fingerprint: "f") {
                    try await Self.createStudent(database, profileID: profile.id)
                }
                #expect(Self.label(again) == "answered \(String(decoding: Self.answer.body, as: UTF8.self))")
            }
            let reused = try await keys.once(profileID: profile.id, key: "k", fingerprint: "other") { ("x", Self.answer) }
            #expect(Self.label(reused) == "reused")
            #expect(try await Self.studentCount(database, profileID: profile.id) == 1)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func concurrentRetriesOfOneKeyRunItOnce(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let profile = try await ProfileRepository(database: database.sql).createGuest()
            let keys = IdempotencyRepository(database: database.sql)
            let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        switch try await keys.once(
                            profileID: profile.id, key: "k", fingerprint: "f",
                            { () -> (String, IdempotencyRepository.Answer?) in
                                let created = try await Self.createStudent(database, profileID: profile.id)
                                try await Task.sleep(for: .milliseconds(50))
                                return created
                            })
                        {
                        case .ran: return "ran"
                        case .answered: return "answered"
                        case .reused: return "reused"
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.sorted() == ["answered", "answered", "answered", "answered", "answered", "ran"])
            #expect(try await Self.studentCount(database, profileID: profile.id) == 1)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func keysLastADayAndAClaimLeftByAnOlderVersionIsTakenOver(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let profile = try await ProfileRepository(database: database.sql).createGuest()
            let keys = IdempotencyRepository(database: database.sql)
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            // A claim without an answer, as the version before committed one, left by a request that died.
            try await database.sql.insert(into: "idempotency_keys").columns("profile_id", "key", "fingerprint", "created_at")
                .values(SQLBind(profile.id), SQLBind("k"), SQLBind("old"), SQLBind(Int64(1_799_999_990_000))).run()
            let taken = try await keys.once(profileID: profile.id, key: "k", fingerprint: "f", now: now) { ("ran", Self.answer) }
            #expect(Self.label(taken) == "ran ran")
            #expect(try await keys.deleteOlder(than: now) == 0)
            #expect(try await keys.deleteOlder(than: now.addingTimeInterval(86_400)) == 1)
            let again = try await keys.once(profileID: profile.id, key: "k", fingerprint: "f", now: now) { ("ran", Self.answer) }
            #expect(Self.label(again) == "ran ran")
        }
    }
}

/// A database that fails the statements `fails` picks, on every connection it hands out.
struct FailingDatabase: ForwardingSQLDatabase, BatchedTransactions {
    struct Injected: Error {}

    let base: any SQLDatabase
    let fails: @Sendable (String) -> Bool

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        var serializer = SQLSerializer(database: self)
        query.serialize(to: &serializer)
        if fails(serializer.sql) { throw Injected() }
        try await base.execute(sql: query, onRow)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let fails = fails
        return try await base.withSession { connection in try await closure(FailingDatabase(base: connection, fails: fails)) }
    }

    var batchesTransactions: Bool { (base as? any BatchedTransactions)?.batchesTransactions ?? false }

    func inBatch<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let fails = fails
        return try await (base as! any BatchedTransactions).inBatch { connection in
            try await body(FailingDatabase(base: connection, fails: fails))
        }
    }
}
