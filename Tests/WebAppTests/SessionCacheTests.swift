import Accounts
import Foundation
import Storage
import Testing

@testable import WebApp

@Suite struct SessionCacheTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func session(_ id: String, expiresIn seconds: TimeInterval) -> SessionRepository.Session {
        .init(id: id, profile: Profile(id: "p-\(id)", username: nil, createdAt: now), expiresAt: now.addingTimeInterval(seconds))
    }

    @Test func keepsASessionForItsLifetimeAndNeverPastItsExpiry() {
        let cache = SessionCache(lifetime: 5, capacity: 10)
        cache.keep(session("a", expiresIn: 3600), now: now)
        cache.keep(session("b", expiresIn: 2), now: now)
        #expect(cache.session(id: "a", now: now.addingTimeInterval(4.9))?.profile.id == "p-a")
        #expect(cache.session(id: "a", now: now.addingTimeInterval(5)) == nil, "older than the cache's lifetime")
        #expect(cache.session(id: "b", now: now.addingTimeInterval(2)) == nil, "the session itself expired")
        #expect(cache.session(id: "c", now: now) == nil)
    }

    @Test func emptiesOnRequestAndWhenFull() {
        let cache = SessionCache(lifetime: 5, capacity: 2)
        cache.keep(session("a", expiresIn: 60), now: now)
        cache.keep(session("b", expiresIn: 60), now: now)
        cache.keep(session("c", expiresIn: 60), now: now)
        #expect(cache.session(id: "a", now: now) == nil && cache.session(id: "c", now: now) != nil)
        cache.removeAll()
        #expect(cache.session(id: "c", now: now) == nil)
    }
}
