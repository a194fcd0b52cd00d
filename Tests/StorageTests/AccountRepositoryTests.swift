import Accounts
import DatabaseDrivers
import Foundation
import MagneticPoetry
import Storage
import TestSupport
import Testing

@Suite struct AccountRepositoryTests {
    static let guestContent = [PoemRepository.publishedByGuest, StoryRepository.ownedByGuest]

    @Test(arguments: DatabaseKind.allCases)
    func guestBecomesAccountKeepingItsID(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let profiles = ProfileRepository(database: database.sql)
            let guest = try await profiles.createGuest()
            #expect(guest.isGuest)
            let account = try await profiles.promote(profileID: guest.id, username: "ada", passwordHash: "hash")
            #expect(account.id == guest.id && account.username == "ada")
            #expect(try await profiles.find(id: guest.id)?.username == "ada")
            let stored = try #require(try await profiles.credentials(username: "ada"))
            #expect(stored.profile.id == guest.id && stored.passwordHash == "hash")
            #expect(try await profiles.credentials(username: "nobody") == nil)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func usernamesAreUniqueAndAccountsCannotBePromotedTwice(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let profiles = ProfileRepository(database: database.sql)
            let first = try await profiles.createGuest()
            let second = try await profiles.createGuest()
            _ = try await profiles.promote(profileID: first.id, username: "ada", passwordHash: "h1")
            await #expect(throws: AccountError.usernameTaken) {
                try await profiles.promote(profileID: second.id, username: "ada", passwordHash: "h2")
            }
            await #expect(throws: AccountError.alreadySignedIn) {
                try await profiles.promote(profileID: first.id, username: "other", passwordHash: "h3")
            }
            #expect(try await profiles.find(id: second.id)?.isGuest == true)
            #expect(try await profiles.credentials(username: "ada")?.passwordHash == "h1")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func sessionsFindTheirProfileUntilTheyExpire(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let profiles = ProfileRepository(database: database.sql)
            let sessions = SessionRepository(database: database.sql)
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let profile = try await profiles.createGuest(now: now)
            let id = try await sessions.create(profileID: profile.id, now: now, lifetime: 60)
            #expect(try await sessions.find(id: id, now: now.addingTimeInterval(59))?.profile == profile)
            #expect(try await sessions.find(id: id, now: now.addingTimeInterval(60)) == nil)
            try await sessions.extend(id: id, until: now.addingTimeInterval(120))
            #expect(try await sessions.find(id: id, now: now.addingTimeInterval(100))?.profile.id == profile.id)
            #expect(try await sessions.deleteExpired(now: now.addingTimeInterval(121)) == 1)
            try await sessions.extend(id: id, until: now.addingTimeInterval(500))
            #expect(try await sessions.find(id: id, now: now) == nil)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func onlyGuestsNobodyCanReachAreDeletedWithTheirData(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let profiles = ProfileRepository(database: database.sql)
            let sessions = SessionRepository(database: database.sql)
            let poems = PoemRepository(database: database.sql)
            let old = Date(timeIntervalSince1970: 1_800_000_000)
            let cutoff = old.addingTimeInterval(86_400)
            let board = Board(wordSetId: "nature", font: .serif, fontScale: 1, magnets: [], extraWords: [])

            let lost = try await profiles.createGuest(now: old)
            let lostPoem = try await poems.create(profileID: lost.id, title: "Gone", board: board)
            let expired = try await profiles.createGuest(now: old)
            _ = try await sessions.create(profileID: expired.id, now: old, lifetime: 60)
            let visiting = try await profiles.createGuest(now: old)
            _ = try await sessions.create(profileID: visiting.id, now: old, lifetime: 10 * 86_400)
            let new = try await profiles.createGuest(now: cutoff.addingTimeInterval(1))
            let publisher = try await profiles.createGuest(now: old)
            let published = try await poems.create(profileID: publisher.id, title: "Read by others", board: board)
            _ = try await poems.publish(id: published.id, profileID: publisher.id)
            let account = try await profiles.createGuest(now: old)
            _ = try await profiles.promote(profileID: account.id, username: "keeper", passwordHash: "x")

            #expect(try await sessions.deleteExpired(now: cutoff) == 1)
            // Batches of one, to go round the loop.
            #expect(try await profiles.deleteAbandonedGuests(createdBefore: cutoff, keptBy: Self.guestContent, batchSize: 1) == 2)
            #expect(try await profiles.find(id: lost.id) == nil)
            #expect(try await profiles.find(id: expired.id) == nil)
            #expect(try await poems.find(id: lostPoem.id, profileID: lost.id) == nil)
            for kept in [visiting, new, publisher, account] {
                #expect(try await profiles.find(id: kept.id) != nil)
            }
            #expect(try await profiles.deleteAbandonedGuests(createdBefore: cutoff, keptBy: Self.guestContent) == 0)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func deletingAProfileEndsItsSessions(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let profiles = ProfileRepository(database: database.sql)
            let sessions = SessionRepository(database: database.sql)
            let profile = try await profiles.createGuest()
            let id = try await sessions.create(profileID: profile.id, lifetime: 3600)
            try await profiles.delete(id: profile.id)
            #expect(try await profiles.find(id: profile.id) == nil)
            #expect(try await sessions.find(id: id) == nil)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func signInFailuresAreCountedPerUsernameWithinTheWindow(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let failures = SignInFailureRepository(database: database.sql)
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            for seconds in [10.0, 20, 2000] { try await failures.record(username: "ada", at: now.addingTimeInterval(-seconds)) }
            try await failures.record(username: "bob", at: now)
            #expect(try await failures.failures(username: "ada", since: now.addingTimeInterval(-900)).count == 2)
            try await failures.clear(username: "ada", olderThan: now.addingTimeInterval(-900))
            #expect(try await failures.failures(username: "ada", since: .distantPast).isEmpty)
            #expect(try await failures.failures(username: "bob", since: .distantPast).count == 1)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aKnownDeviceIsKnownToItsAccountOnlyAndItsFailuresAreCountedApart(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let profiles = ProfileRepository(database: database.sql)
            let devices = KnownDeviceRepository(database: database.sql)
            let failures = SignInFailureRepository(database: database.sql)
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let ada = try await profiles.promote(profileID: try await profiles.createGuest().id, username: "ada", passwordHash: "h")
            _ = try await profiles.promote(profileID: try await profiles.createGuest().id, username: "bob", passwordHash: "h")
            let first = try await devices.remember(profileID: ada.id, replacing: nil, now: now)
            #expect(try await devices.isKnown(token: first, username: "ada", since: now.addingTimeInterval(-60)))
            #expect(try await !devices.isKnown(token: first, username: "bob", since: now.addingTimeInterval(-60)))
            #expect(try await !devices.isKnown(token: first, username: "ada", since: now), "remembered too long ago")
            let second = try await devices.remember(profileID: ada.id, replacing: first, now: now)
            #expect(try await !devices.isKnown(token: first, username: "ada", since: .distantPast), "a replaced token is forgotten")

            try await failures.record(username: "ada", client: "192.0.2.1", at: now)
            try await failures.record(username: "ada", client: "192.0.2.2", device: second, at: now)
            #expect(try await failures.failures(username: "ada", since: .distantPast).count == 1)
            #expect(try await failures.failures(device: second, since: .distantPast).count == 1)
            #expect(try await failures.failures(client: "192.0.2.2", since: .distantPast).count == 1)
            try await failures.clear(device: second, olderThan: .distantPast)
            #expect(try await failures.failures(device: second, since: .distantPast).isEmpty)
            #expect(try await failures.failures(username: "ada", since: .distantPast).count == 1, "the others' failures stay")

            try await profiles.delete(id: ada.id)
            #expect(try await !devices.isKnown(token: second, username: "ada", since: .distantPast))
            #expect(try await devices.deleteOlder(than: now.addingTimeInterval(1)) == 0, "the account's devices went with it")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aFailedTransactionWritesNothing(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            await #expect(throws: Boom.self) {
                try await database.sql.transaction { db in
                    try await db.insert(into: "profiles").columns("id", "created_at").values("p1", 1).run()
                    throw Boom()
                }
            }
            let written = try await ProfileRepository(database: database.sql).find(id: "p1")
            #expect(written == nil)
        }
    }
}

private struct Boom: Error {}
