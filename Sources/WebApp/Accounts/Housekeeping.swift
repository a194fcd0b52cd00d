import Foundation
import Logging
import ServiceLifecycle
import Storage

/// Deletes what nobody can reach any more, at start and then every hour: expired sessions, idempotency keys
/// older than a day, known devices older than their cookie, and guest profiles whose visitors lost them (every visit without a cookie makes a guest, so without this the
/// profiles table grows with every crawler). See `ProfileRepository.deleteAbandonedGuests`.
struct Housekeeping: Service {
    let sessions: SessionRepository
    let profiles: ProfileRepository
    let idempotencyKeys: IdempotencyRepository
    let devices: KnownDeviceRepository
    /// Each app's conditions keeping a guest whose content others may read (`TroveApp.guestContent`).
    let guestContent: [String]
    let logger: Logger
    var interval: Duration = .seconds(3600)
    /// How old a guest without a session must be before it goes.
    var guestGrace: TimeInterval = 86_400

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await sweep(now: Date())
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// One round; a failure (the database unreachable for a moment) waits for the next.
    func sweep(now: Date) async {
        do {
            let sessionCount = try await sessions.deleteExpired(now: now)
            let guestCount = try await profiles.deleteAbandonedGuests(
                createdBefore: now.addingTimeInterval(-guestGrace), keptBy: guestContent)
            _ = try await idempotencyKeys.deleteOlder(than: now.addingTimeInterval(-86_400))
            _ = try await devices.deleteOlder(than: now.addingTimeInterval(-DeviceCookie.lifetime))
            if sessionCount + guestCount > 0 {
                logger.info("Housekeeping deleted \(sessionCount) expired session(s) and \(guestCount) abandoned guest profile(s)")
            }
        } catch {
            logger.warning("Housekeeping could not run: \(error)")
        }
    }
}
