import Accounts
import Foundation
import Hummingbird
import Storage
import Synchronization

/// What the session layer needs from storage, with the session lifetime.
struct SessionStore: Sendable {
    let profiles: ProfileRepository
    let sessions: SessionRepository
    let lifetime: TimeInterval
    let cache = SessionCache()

    /// The session the request's cookie names, from the cache or the database; nil without a valid one.
    func session(for request: Request, now: Date) async throws -> SessionRepository.Session? {
        guard let value = request.cookieValue(ProfileSessions.cookieName), ProfileSessions.looksLikeSessionID(value) else { return nil }
        let id = String(value)
        if let cached = cache.session(id: id, now: now) {
            Telemetry.sessionLookup(cached: true)
            return cached
        }
        Telemetry.sessionLookup(cached: false)
        let found = try await sessions.find(id: id, now: now)
        if let found { cache.keep(found, now: now) }
        return found
    }
}

/// The visitor's session for one request: who they are, and the cookie change the response must carry.
///
/// Handlers ask for `profile` (may be nil) or `requireProfile()` (creates a guest profile on first use);
/// sign-in and sign-out rotate or end the session. The middleware writes the resulting cookie.
public final class ProfileSession: Sendable {
    enum CookieChange: Equatable {
        case set(id: String, expires: Date)
        case clear
    }

    private struct State {
        var current: SessionRepository.Session?
        var cookieChange: CookieChange?
    }

    private let store: SessionStore?
    private let state: Mutex<State>

    /// The session of a request before the session middleware runs (and of routes outside it): no profile, and it
    /// cannot make one. Shared, as nothing can change it.
    static let outsideSessions = ProfileSession(store: nil, current: nil)

    init(store: SessionStore?, current: SessionRepository.Session?) {
        self.store = store
        self.state = Mutex(State(current: current, cookieChange: nil))
    }

    /// The profile of this visitor, if they have one yet.
    public var profile: Profile? { state.withLock { $0.current?.profile } }

    var cookieChange: CookieChange? { state.withLock { $0.cookieChange } }

    /// The visitor's profile, creating a guest profile and its session when there is none.
    ///
    /// A new guest's session lasts a day (`firstVisitLifetime`) until the visitor comes back: their next request
    /// extends it as any session is extended (`ProfileSessions.attach`). So a client that sends one request and never
    /// its cookie again (a crawler, a monitor) leaves a guest that `Housekeeping` deletes within two days, not 31.
    public func requireProfile(now: Date = Date()) async throws -> Profile {
        if let profile { return profile }
        let store = try requireStore()
        let guest = try await store.profiles.createGuest(now: now)
        try await start(for: guest, store: store, now: now, lifetime: min(Self.firstVisitLifetime, store.lifetime))
        return guest
    }

    static let firstVisitLifetime: TimeInterval = 86_400

    /// Ends the current session and starts a new one, with a new id, for `profile` (sign-up and sign-in).
    func signIn(as profile: Profile, now: Date = Date()) async throws {
        let store = try requireStore()
        store.cache.removeAll()
        if let old = state.withLock({ $0.current }) {
            try await store.sessions.delete(id: old.id)
        }
        try await start(for: profile, store: store, now: now)
    }

    /// Ends the session in the database and tells the browser to forget it.
    func signOut() async throws {
        let store = try requireStore()
        store.cache.removeAll()
        if let old = state.withLock({ $0.current }) {
            try await store.sessions.delete(id: old.id)
        }
        forget()
    }

    /// Ends every other session of this visitor's profile (after a password change), keeping this one.
    func endOtherSessions() async throws {
        let store = try requireStore()
        guard let current = state.withLock({ $0.current }) else { return }
        store.cache.removeAll()
        try await store.sessions.deleteAll(profileID: current.profile.id, except: current.id)
    }

    /// Ends every session of this visitor's profile, this one too ("sign out everywhere").
    func signOutEverywhere() async throws {
        let store = try requireStore()
        if let current = state.withLock({ $0.current }) {
            store.cache.removeAll()
            try await store.sessions.deleteAll(profileID: current.profile.id)
        }
        forget()
    }

    /// Drops the session without touching storage (its profile was deleted, taking the session with it).
    func forget() {
        // The shared session of requests outside the middleware has nothing to forget.
        guard let store else { return }
        store.cache.removeAll()
        state.withLock {
            $0.current = nil
            $0.cookieChange = .clear
        }
    }

    private func start(for profile: Profile, store: SessionStore, now: Date, lifetime: TimeInterval? = nil) async throws {
        let lifetime = lifetime ?? store.lifetime
        let id = try await store.sessions.create(profileID: profile.id, now: now, lifetime: lifetime)
        let expires = now.addingTimeInterval(lifetime)
        state.withLock {
            $0.current = .init(id: id, profile: profile, expiresAt: expires)
            $0.cookieChange = .set(id: id, expires: expires)
        }
    }

    private func requireStore() throws -> SessionStore {
        guard let store else { throw SessionUnavailable() }
        return store
    }
}

/// A handler asked for a profile on a route outside the session middleware: a bug in the route table.
struct SessionUnavailable: Error {}
