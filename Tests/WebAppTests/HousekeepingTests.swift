import DatabaseDrivers
import Foundation
import Logging
import Storage
import TestSupport
import Testing

@testable import WebApp

/// A sweep deletes expired sessions, the guests that leaves nobody able to reach, and year-old known devices.
@Suite struct HousekeepingTests {
    @Test(arguments: DatabaseKind.allCases)
    func aSweepDeletesExpiredSessionsAndLostGuests(kind: DatabaseKind) async throws {
        try await TestDatabase.with(kind) { database in
            let profiles = ProfileRepository(database: database.sql)
            let sessions = SessionRepository(database: database.sql)
            let created = Date(timeIntervalSince1970: 1_800_000_000)
            let leaving = try await profiles.createGuest(now: created)
            _ = try await sessions.create(profileID: leaving.id, now: created, lifetime: 3600)
            let staying = try await profiles.createGuest(now: created)
            let live = try await sessions.create(profileID: staying.id, now: created, lifetime: 30 * 86_400)
            let devices = KnownDeviceRepository(database: database.sql)
            _ = try await devices.remember(profileID: staying.id, replacing: nil, now: created.addingTimeInterval(-366 * 86_400))
            let recent = try await devices.remember(profileID: staying.id, replacing: nil, now: created)
            let housekeeping = Housekeeping(
                sessions: sessions, profiles: profiles, idempotencyKeys: IdempotencyRepository(database: database.sql),
                devices: devices,
                guestContent: TroveApps.all.flatMap { $0.guestContent }, logger: Logger(label: "test")
            )

            // A day and a minute later: the first session has expired, and its guest is past the grace.
            await housekeeping.sweep(now: created.addingTimeInterval(86_460))
            #expect(try await profiles.find(id: leaving.id) == nil)
            #expect(try await profiles.find(id: staying.id) != nil)
            #expect(try await sessions.find(id: live, now: created.addingTimeInterval(86_460))?.profile.id == staying.id)
            // A browser remembered more than a year ago is forgotten; the recent one stays.
            let tokens = try await database.sql.select().column("token").from("known_devices").all()
                .map { try $0.decode(column: "token", as: String.self) }
            #expect(tokens == [recent])
        }
    }
}
