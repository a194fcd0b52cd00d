import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import WebApp

/// A yoga instructor's day through the API, on both databases.
@Suite struct YogaAPITests {
    func guest(_ client: some TestClientProtocol) async throws -> String {
        try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
    }

    func send(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ cookie: String,
        _ object: [String: Any]? = nil
    ) async throws -> TestResponse {
        try await client.execute(uri: uri, method: method, headers: .json(cookie: cookie), body: object.map(body))
    }

    func addStudent(_ client: some TestClientProtocol, _ cookie: String, _ name: String) async throws -> String {
        let response = try await send(client, .post, "/api/v1/yoga/students", cookie, ["name": name, "joined_on": "2026-01-10"])
        #expect(response.status == .created)
        return try #require(try response.json()["id"] as? String)
    }

    @Test(arguments: DatabaseKind.allCases)
    func aClassFromCheckInToSavedSessionWithDerivedAttendance(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let ana = try await addStudent(client, cookie, "Ana")
            let ben = try await addStudent(client, cookie, "Ben")
            let checkIn = try await send(
                client, .post, "/api/v1/yoga/class", cookie,
                [
                    "venue": ["name": "Park Pavilion", "address": "Main St 1", "latitude": 43.77, "longitude": 11.25], "attendees": [ana],
                ])
            #expect(checkIn.status == .created)
            let running = try #require(try checkIn.json()["class"] as? [String: Any])
            #expect((running["venue"] as? [String: Any])?["name"] as? String == "Park Pavilion")
            // A second check-in while one runs is refused, and saves no venue.
            #expect(
                try await send(client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Elsewhere"]]).errorCode
                    == "class_in_session")
            #expect((try await send(client, .get, "/api/v1/yoga/venues", cookie).json()["venues"] as? [Any])?.count == 1)
            let changed = try await send(
                client, .patch, "/api/v1/yoga/class", cookie, ["add": [ben], "remove": [ana], "notes": "Hip openers"])
            let attendees = (try changed.json()["class"] as? [String: Any])?["attendees"] as? [[String: Any]]
            #expect(attendees?.compactMap { $0["name"] as? String } == ["Ben"])
            // The answer is made from what the change read: it is what the class reads as afterwards.
            let read = try await client.execute(uri: "/api/v1/yoga/class", method: .get, headers: .session(cookie)).json()
            let answered = try changed.json()
            #expect((read["class"] as? [String: Any])?["notes"] as? String == "Hip openers")
            #expect((answered["class"] as? [String: Any])?["notes"] as? String == "Hip openers")
            // A stranger, or another instructor's student, among those added refuses the whole change.
            let other = try await guest(client)
            let theirs = try await addStudent(client, other, "Cleo")
            for stranger in ["stranger", theirs] {
                let refused = try await send(
                    client, .patch, "/api/v1/yoga/class", cookie, ["add": [ana, stranger], "remove": [ben], "notes": "Changed"])
                #expect(refused.status == .unprocessableContent && refused.errorCode == "not_on_roster", "\(refused.bodyText)")
                let unchanged = try await client.execute(uri: "/api/v1/yoga/class", method: .get, headers: .session(cookie)).json()
                let running = unchanged["class"] as? [String: Any]
                #expect((running?["attendees"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Ben"])
                #expect(running?["notes"] as? String == "Hip openers")
            }
            _ = try await send(client, .patch, "/api/v1/yoga/class", cookie, ["add": [ana]])
            let end = try await send(client, .post, "/api/v1/yoga/class/end", cookie, ["action": "save"])
            #expect(end.status == .created)
            let session = try #require(try end.json()["session"] as? [String: Any])
            #expect(session["attendance"] as? Int == 2 && session["notes"] as? String == "Hip openers")
            #expect(try await client.execute(uri: "/api/v1/yoga/class", method: .get, headers: .session(cookie)).json()["class"] is NSNull)
            // Sessions attended is derived; the venue was saved and marked used.
            let students =
                try await client.execute(uri: "/api/v1/yoga/students?sort=name", method: .get, headers: .session(cookie)).json()["students"]
                as? [[String: Any]]
            #expect(students?.compactMap { $0["sessions_attended"] as? Int } == [1, 1])
            // One student read alone counts their own attendance only (not every student's).
            let one = try await client.execute(uri: "/api/v1/yoga/students/\(ana)", method: .get, headers: .session(cookie)).json()
            let alone = (one["student"] as? [String: Any]) ?? one
            #expect(alone["sessions_attended"] as? Int == 1 && alone["last_seen"] is String, "\(one)")
            let venues =
                try await client.execute(uri: "/api/v1/yoga/venues", method: .get, headers: .session(cookie)).json()["venues"]
                as? [[String: Any]]
            #expect(venues?.first?["session_count"] as? Int == 1 && venues?.first?["last_used_at"] is String)
            // Checking in at the saved venue again reuses it; discarding leaves no session.
            let venueID = try #require(venues?.first?["id"] as? String)
            #expect(try await send(client, .post, "/api/v1/yoga/class", cookie, ["venue_id": venueID]).status == .created)
            let discard = try await send(client, .post, "/api/v1/yoga/class/end", cookie, ["action": "discard"])
            let discarded = try discard.json()
            #expect(discard.status == .ok && discarded["discarded"] as? Bool == true)
            let sessions =
                try await client.execute(uri: "/api/v1/yoga/sessions", method: .get, headers: .session(cookie)).json()["sessions"] as? [Any]
            #expect(sessions?.count == 1)
            // Regulars of the venue: both came.
            let regulars = try await client.execute(uri: "/api/v1/yoga/venues/\(venueID)/regulars", method: .get, headers: .session(cookie))
                .json()
            #expect((regulars["students"] as? [[String: Any]])?.count == 2)
        }
    }

    /// A class checked in on a device without a connection is handed over, once it has one, with its start and
    /// temperature: it runs on the server from when it started there. A start out of bounds writes nothing.
    @Test(arguments: DatabaseKind.allCases)
    func aClassCheckedInOfflineIsHandedOverWithItsStart(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let ana = try await addStudent(client, cookie, "Ana")
            let format = ISO8601DateFormatter()
            for (start, why) in [
                (Date().addingTimeInterval(3600), "in the future"), (Date().addingTimeInterval(-25 * 3600), "more than 24 hours ago"),
            ] {
                let refused = try await send(
                    client, .post, "/api/v1/yoga/class", cookie,
                    ["venue": ["name": "Loft"], "attendees": [ana], "started_at": format.string(from: start)])
                #expect(refused.status == .unprocessableContent && refused.errorCode == "validation_failed", "\(why): \(refused.bodyText)")
            }
            let bad = try await send(
                client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Loft"], "started_at": "yesterday at six"])
            #expect(bad.status == .unprocessableContent, "\(bad.bodyText)")
            let hot = try await send(
                client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Loft"], "temperature_c": 99])
            #expect(hot.status == .unprocessableContent, "\(hot.bodyText)")
            #expect((try await send(client, .get, "/api/v1/yoga/venues", cookie).json()["venues"] as? [Any])?.isEmpty == true)

            let started = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 20 * 60).rounded(.down))
            let handed = try await send(
                client, .post, "/api/v1/yoga/class", cookie,
                [
                    "venue": ["name": "Loft"], "attendees": [ana], "notes": "Held on the phone", "temperature_c": 7.5,
                    "started_at": format.string(from: started),
                ])
            #expect(handed.status == .created, "\(handed.bodyText)")
            let running = try #require(
                try await client.execute(uri: "/api/v1/yoga/class", method: .get, headers: .session(cookie)).json()["class"]
                    as? [String: Any])
            #expect(running["started_at"] as? String == format.string(from: started))
            #expect(running["temperature_c"] as? Double == 7.5 && running["notes"] as? String == "Held on the phone")
            #expect((running["elapsed_seconds"] as? Int ?? 0) >= 20 * 60)
            let end = try await send(client, .post, "/api/v1/yoga/class/end", cookie, ["action": "save"])
            let session = try #require(try end.json()["session"] as? [String: Any])
            #expect(session["started_at"] as? String == format.string(from: started) && session["attendance"] as? Int == 1)
            #expect((session["duration_seconds"] as? Int ?? 0) >= 20 * 60)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func deletingAStudentWhoAttendedAsksFirstAndKeepsTheHeadCount(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let ana = try await addStudent(client, cookie, "Ana")
            let ben = try await addStudent(client, cookie, "Ben")
            _ = try await send(client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Loft"], "attendees": [ana, ben]])
            let saved = try await send(client, .post, "/api/v1/yoga/class/end", cookie, ["action": "save"]).json()
            let sessionID = try #require((saved["session"] as? [String: Any])?["id"] as? String)
            let refused = try await send(client, .delete, "/api/v1/yoga/students/\(ana)", cookie)
            #expect(refused.status == .conflict && refused.errorCode == "student_has_sessions")
            #expect(try await send(client, .delete, "/api/v1/yoga/students/\(ana)?confirm=1", cookie).status == .noContent)
            let session = try await client.execute(uri: "/api/v1/yoga/sessions/\(sessionID)", method: .get, headers: .session(cookie))
                .json()
            #expect(session["attendance"] as? Int == 2)
            let attendees = try #require(session["attendees"] as? [[String: Any]])
            #expect(attendees.contains { $0["name"] as? String == "Ana" && $0["id"] is NSNull })
            // A correction keeps the former student and replaces the roster ones.
            let corrected = try await send(
                client, .put, "/api/v1/yoga/sessions/\(sessionID)", cookie,
                [
                    "started_at": "2026-11-20T18:00:00Z", "ended_at": "2026-11-20T19:15:00Z", "attendees": [String](),
                    "notes": "Restorative",
                ])
            #expect(corrected.status == .ok)
            let fixed = try corrected.json()
            #expect(fixed["attendance"] as? Int == 1 && fixed["duration_seconds"] as? Int == 4500)
            #expect(try await send(client, .delete, "/api/v1/yoga/sessions/\(sessionID)", cookie).status == .noContent)
            #expect(try await send(client, .get, "/api/v1/yoga/sessions/\(sessionID)", cookie).status == .notFound)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func badInputIsAClear4xxAndWritesNothing(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let ana = try await addStudent(client, cookie, "Ana")
            let cases: [(HTTPRequest.Method, String, [String: Any]?, HTTPResponse.Status, String)] = [
                (.post, "/api/v1/yoga/students", ["name": "  "], .unprocessableContent, "validation_failed"),
                (.post, "/api/v1/yoga/students", ["name": "Cy", "joined_on": "22/11/2026"], .unprocessableContent, "validation_failed"),
                (.post, "/api/v1/yoga/students", ["name": "Cy", "type_id": "nope"], .notFound, "not_found"),
                (
                    .put, "/api/v1/yoga/students/\(ana)", ["name": "Ana", "joined_on": "2026-02-30", "active": true], .unprocessableContent,
                    "validation_failed"
                ),
                (.put, "/api/v1/yoga/students/\(ana)", ["name": "Ana"], .unprocessableContent, "validation_failed"),
                (.post, "/api/v1/yoga/student-types", ["name": ""], .unprocessableContent, "validation_failed"),
                (.post, "/api/v1/yoga/class/end", ["action": "save"], .notFound, "no_class"),
                (.patch, "/api/v1/yoga/class", ["add": [ana]], .notFound, "no_class"),
                (.get, "/api/v1/yoga/class/weather", nil, .notFound, "no_class"),
                (
                    .post, "/api/v1/yoga/class", ["venue": ["name": "Loft"], "attendees": ["not-a-student"]], .unprocessableContent,
                    "not_on_roster"
                ),
                (.post, "/api/v1/yoga/class", ["venue": ["name": "Loft", "latitude": 43]], .unprocessableContent, "validation_failed"),
                (.post, "/api/v1/yoga/class", [:], .unprocessableContent, "validation_failed"),
                (.post, "/api/v1/yoga/class", ["venue_id": "missing"], .notFound, "not_found"),
                (.post, "/api/v1/yoga/class/end", ["action": "pause"], .unprocessableContent, "validation_failed"),
                (
                    .put, "/api/v1/yoga/settings", ["temperature_unit": "kelvin", "slipping_weeks": 3], .unprocessableContent,
                    "validation_failed"
                ),
                (
                    .put, "/api/v1/yoga/settings", ["temperature_unit": "celsius", "slipping_weeks": 0], .unprocessableContent,
                    "validation_failed"
                ),
                (.get, "/api/v1/yoga/venues/search?lat=91&lon=0", nil, .badRequest, "bad_request"),
                (.get, "/api/v1/yoga/weather?lat=91&lon=0", nil, .badRequest, "bad_request"),
                (.get, "/api/v1/yoga/weather?lat=43", nil, .badRequest, "bad_request"),
                (.get, "/api/v1/yoga/students?sort=height", nil, .badRequest, "bad_request"),
                (.get, "/api/v1/yoga/sessions?sort=mood", nil, .badRequest, "bad_request"),
                (.get, "/api/v1/yoga/export.csv?kind=everything", nil, .badRequest, "bad_request"),
            ]
            for (method, uri, payload, status, code) in cases {
                let response = try await send(client, method, uri, cookie, payload)
                #expect(response.status == status, "\(method) \(uri): \(response.bodyText)")
                #expect(response.errorCode == code, "\(method) \(uri): \(response.bodyText)")
            }
            // Nothing was written: one student, no class, no session, no venue.
            #expect((try await send(client, .get, "/api/v1/yoga/students", cookie).json()["students"] as? [Any])?.count == 1)
            #expect(try await send(client, .get, "/api/v1/yoga/class", cookie).json()["class"] is NSNull)
            #expect((try await send(client, .get, "/api/v1/yoga/venues", cookie).json()["venues"] as? [Any])?.isEmpty == true)
            // Session corrections with bad times.
            _ = try await send(client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Loft"]])
            let sessionID = try #require(
                ((try await send(client, .post, "/api/v1/yoga/class/end", cookie, ["action": "save"]).json())["session"] as? [String: Any])?[
                    "id"] as? String)
            for times in [
                ("2026-11-20T19:00:00Z", "2026-11-20T18:00:00Z"), ("yesterday", "2026-11-20T18:00:00Z"),
                ("2026-11-20T18:00:00Z", "2026-11-22T18:00:00Z"),
            ] {
                let response = try await send(
                    client, .put, "/api/v1/yoga/sessions/\(sessionID)", cookie,
                    ["started_at": times.0, "ended_at": times.1, "attendees": [String]()])
                #expect(response.status == .unprocessableContent, "\(times)")
            }
            let refused = try await send(
                client, .put, "/api/v1/yoga/sessions/\(sessionID)", cookie,
                ["started_at": "2026-11-20T18:00:00Z", "ended_at": "2026-11-20T19:00:00Z", "attendees": ["stranger"]])
            #expect(refused.errorCode == "not_on_roster")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func anotherProfileGets404ForEverything(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let owner = try await guest(client)
            let stranger = try await guest(client)
            let ana = try await addStudent(client, owner, "Ana")
            let type = try #require(
                try await send(client, .post, "/api/v1/yoga/student-types", owner, ["name": "senior"]).json()["id"] as? String)
            let venue = try #require(
                try await send(client, .post, "/api/v1/yoga/venues", owner, ["name": "Loft", "address": "Via Roma"]).json()["id"] as? String
            )
            _ = try await send(client, .post, "/api/v1/yoga/class", owner, ["venue_id": venue, "attendees": [ana]])
            let session = try #require(
                ((try await send(client, .post, "/api/v1/yoga/class/end", owner, ["action": "save"]).json())["session"] as? [String: Any])?[
                    "id"] as? String)
            let attempts: [(HTTPRequest.Method, String, [String: Any]?)] = [
                (.get, "/api/v1/yoga/students/\(ana)", nil),
                (.put, "/api/v1/yoga/students/\(ana)", ["name": "Mine", "joined_on": "2026-01-01", "active": true]),
                (.delete, "/api/v1/yoga/students/\(ana)?confirm=1", nil),
                (.put, "/api/v1/yoga/student-types/\(type)", ["name": "x"]), (.delete, "/api/v1/yoga/student-types/\(type)", nil),
                (.put, "/api/v1/yoga/venues/\(venue)", ["name": "x", "favourite": true]), (.delete, "/api/v1/yoga/venues/\(venue)", nil),
                (.get, "/api/v1/yoga/venues/\(venue)/regulars", nil), (.post, "/api/v1/yoga/class", ["venue_id": venue]),
                (.get, "/api/v1/yoga/sessions/\(session)", nil), (.delete, "/api/v1/yoga/sessions/\(session)", nil),
                (
                    .put, "/api/v1/yoga/sessions/\(session)",
                    ["started_at": "2026-11-20T18:00:00Z", "ended_at": "2026-11-20T19:00:00Z", "attendees": [String]()]
                ),
            ]
            for (method, uri, payload) in attempts {
                #expect(try await send(client, method, uri, stranger, payload).status == .notFound, "\(method) \(uri)")
            }
            // Nor do the stranger's lists show anything, and the owner's data is intact.
            #expect((try await send(client, .get, "/api/v1/yoga/sessions", stranger).json()["sessions"] as? [Any])?.isEmpty == true)
            #expect((try await send(client, .get, "/api/v1/yoga/students", stranger).json()["students"] as? [Any])?.isEmpty == true)
            #expect(try await send(client, .get, "/api/v1/yoga/sessions/\(session)", owner).status == .ok)
            #expect(try await send(client, .get, "/api/v1/yoga/students/\(ana)", owner).json()["name"] as? String == "Ana")
        }
    }

    /// The saved venue to suggest where the instructor stands: the nearest within 2 km, by great-circle distance.
    @Test(arguments: DatabaseKind.allCases)
    func theNearestSavedVenueIsSuggestedWithinTwoKilometres(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            // Florence's Duomo (43.7731, 11.2560); Santa Croce about 760 m away, Fiesole about 5.7 km.
            for (name, lat, lon) in [
                ("Santa Croce", 43.7686, 11.2622), ("Fiesole", 43.8067, 11.2936), ("No place", nil, nil) as (String, Double?, Double?),
            ] {
                var venue: [String: Any] = ["name": name]
                if let lat, let lon {
                    venue["latitude"] = lat
                    venue["longitude"] = lon
                }
                #expect(try await send(client, .post, "/api/v1/yoga/venues", cookie, venue).status == .created)
            }
            let near = try await send(client, .get, "/api/v1/yoga/venues/nearest?lat=43.7731&lon=11.2560", cookie).json()
            #expect((near["venue"] as? [String: Any])?["name"] as? String == "Santa Croce")
            let metres = try #require(near["distance_m"] as? Double)
            #expect((700...820).contains(metres), "\(metres) m from the Duomo to Santa Croce")
            let far = try await send(client, .get, "/api/v1/yoga/venues/nearest?lat=43.70&lon=11.10", cookie).json()
            #expect(far["venue"] is NSNull && far["distance_m"] is NSNull)
            #expect(try await send(client, .get, "/api/v1/yoga/venues/nearest?lat=91&lon=0", cookie).status == .badRequest)
            #expect(try await send(client, .get, "/api/v1/yoga/venues/nearest?lat=43.7", cookie).status == .badRequest)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func theOwnerRenamesAStudentTypeAndItsStudentsFollow(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let type = try #require(
                try await send(client, .post, "/api/v1/yoga/student-types", cookie, ["name": "senior"]).json()["id"] as? String)
            _ = try await send(client, .post, "/api/v1/yoga/students", cookie, ["name": "Ida", "joined_on": "2025-03-01", "type_id": type])
            let renamed = try await send(client, .put, "/api/v1/yoga/student-types/\(type)", cookie, ["name": "elder"])
            #expect(renamed.status == .ok)
            let types = try await send(client, .get, "/api/v1/yoga/student-types", cookie).json()["types"] as? [[String: Any]]
            #expect(types?.first { $0["id"] as? String == type }?["name"] as? String == "elder")
            let ida = try await send(client, .get, "/api/v1/yoga/students?q=ida", cookie).json()["students"] as? [[String: Any]]
            #expect(ida?.first?["type_name"] as? String == "elder")
            #expect(
                try await send(client, .put, "/api/v1/yoga/student-types/\(type)", cookie, ["name": " "]).status == .unprocessableContent)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func typeNamesAreUniqueInAnyCaseAndNobodyJoinsInTheFuture(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let duplicate = try await send(client, .post, "/api/v1/yoga/student-types", cookie, ["name": "Member"])
            #expect(duplicate.status == .conflict && duplicate.errorCode == "student_type_exists")
            let senior = try #require(
                try await send(client, .post, "/api/v1/yoga/student-types", cookie, ["name": "senior"]).json()["id"] as? String)
            let renamed = try await send(client, .put, "/api/v1/yoga/student-types/\(senior)", cookie, ["name": "TRIAL"])
            #expect(renamed.status == .conflict && renamed.errorCode == "student_type_exists")
            #expect(
                try await send(client, .put, "/api/v1/yoga/student-types/\(senior)", cookie, ["name": "Senior"]).status == .ok,
                "its own name in another case")
            let types = try await send(client, .get, "/api/v1/yoga/student-types", cookie).json()["types"] as? [[String: Any]]
            #expect(types?.compactMap { $0["name"] as? String } == ["drop-in", "member", "trial", "Senior"])

            let tomorrowSomewhere = YogaRosterAPIController.today(Date().addingTimeInterval(86_400 * 2))
            let future = try await send(client, .post, "/api/v1/yoga/students", cookie, ["name": "Ana", "joined_on": tomorrowSomewhere])
            #expect(future.status == .unprocessableContent && future.errorCode == "validation_failed")
            #expect(try future.json().description.contains("future"))
            let ana = try await addStudent(client, cookie, "Ana")
            let edit = try await send(
                client, .put, "/api/v1/yoga/students/\(ana)", cookie, ["name": "Ana", "joined_on": tomorrowSomewhere, "active": true])
            #expect(edit.status == .unprocessableContent)
            #expect(try await send(client, .get, "/api/v1/yoga/students/\(ana)", cookie).json()["joined_on"] as? String == "2026-01-10")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aStudentsHistoryAndTheCSVInTheInstructorsZoneAndUnit(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let ana = try await addStudent(client, cookie, "Ana")
            let bea = try await addStudent(client, cookie, "Bea")
            for (day, attendees, temperature) in [("05", [ana, bea], 20.0), ("12", [ana], 25.0), ("19", [bea], 30.0)] {
                _ = try await send(client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Loft"], "attendees": attendees])
                let ended = try await send(client, .post, "/api/v1/yoga/class/end", cookie, ["action": "save"])
                let id = try #require((try ended.json()["session"] as? [String: Any])?["id"] as? String)
                // Corrected to a January evening class (Pacific time is UTC-8 then) with the temperature typed in.
                let correction: [String: Any] = [
                    "started_at": "2026-01-\(day)T02:00:00Z", "ended_at": "2026-01-\(day)T03:15:00Z",
                    "attendees": attendees, "notes": "", "temperature_c": temperature,
                ]
                #expect(try await send(client, .put, "/api/v1/yoga/sessions/\(id)", cookie, correction).status == .ok)
            }
            let history =
                try await send(client, .get, "/api/v1/yoga/students/\(ana)/sessions", cookie).json()["sessions"] as? [[String: Any]]
            #expect(history?.compactMap { $0["temperature_c"] as? Double } == [25, 20], "Ana's two sessions, newest first")
            let stranger = try await guest(client)
            #expect(try await send(client, .get, "/api/v1/yoga/students/\(ana)/sessions", stranger).status == .notFound)

            #expect(
                try await send(client, .put, "/api/v1/yoga/settings", cookie, ["temperature_unit": "fahrenheit", "slipping_weeks": 6])
                    .status == .ok)
            let csv = try await send(client, .get, "/api/v1/yoga/export.csv?tz=America/Los_Angeles", cookie).bodyText
            let lines = csv.split(separator: "\r\n").map(String.init)
            #expect(lines.first?.contains(",temperature_f,") == true)
            let fields = lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            #expect(fields.dropFirst().map { $0.count > 7 ? $0[7] : "" } == ["68.0", "77.0", "86.0"])
            #expect(fields.count > 1 && fields[1].count > 3 && fields[1][3] == "2026-01-04T18:00:00-08:00", "\(lines) in Pacific time")
            #expect(try await send(client, .get, "/api/v1/yoga/export.csv?tz=Mars/Olympus", cookie).status == .badRequest)
        }
    }

    /// A class held offline arrives as one write, even while another class runs, and only once with its key.
    @Test(arguments: DatabaseKind.allCases)
    func aWholeClassIsRecordedInOneWrite(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let ana = try await addStudent(client, cookie, "Ana")
            #expect(try await send(client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Elsewhere"]]).status == .created)
            let held: [String: Any] = [
                "venue": ["name": "Basement Studio", "latitude": 43.77, "longitude": 11.25], "started_at": "2026-02-03T17:00:00Z",
                "ended_at": "2026-02-03T18:15:00Z", "attendees": [ana], "notes": "No signal", "temperature_c": 4.5,
            ]
            let recorded = try await send(client, .post, "/api/v1/yoga/sessions", cookie, held)
            #expect(recorded.status == .created)
            let session = try recorded.json()
            #expect((session["venue"] as? [String: Any])?["name"] as? String == "Basement Studio" && session["attendance"] as? Int == 1)
            #expect(
                session["duration_seconds"] as? Int == 4500 && session["temperature_c"] as? Double == 4.5
                    && session["notes"] as? String == "No signal")
            #expect(
                try await send(client, .get, "/api/v1/yoga/class", cookie).json()["class"] is [String: Any],
                "the running class is untouched")
            let venues = try await send(client, .get, "/api/v1/yoga/venues", cookie).json()["venues"] as? [[String: Any]]
            #expect(venues?.contains { $0["name"] as? String == "Basement Studio" } == true)
            var bad = held
            bad["ended_at"] = "2026-02-03T16:00:00Z"
            #expect(try await send(client, .post, "/api/v1/yoga/sessions", cookie, bad).status == .unprocessableContent)
            bad = held
            bad["attendees"] = ["nobody"]
            #expect(try await send(client, .post, "/api/v1/yoga/sessions", cookie, bad).errorCode == "not_on_roster")
            let sessions = try await send(client, .get, "/api/v1/yoga/sessions", cookie).json()["sessions"] as? [Any]
            #expect(sessions?.count == 1)
        }
    }

    /// Two devices edit one student from forms opened on the same student: each keeps its change.
    @Test(arguments: DatabaseKind.allCases)
    func twoDevicesEditingOneStudentKeepEachOthersChanges(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let ana = try await addStudent(client, cookie, "Ana")
            let types = try await send(client, .get, "/api/v1/yoga/student-types", cookie).json()["types"] as? [[String: Any]]
            let trial = try #require(types?.first { $0["name"] as? String == "trial" }?["id"] as? String)
            let opened: [String: Any] = ["name": "Ana", "joined_on": "2026-01-10", "active": true, "type_id": NSNull(), "notes": ""]
            var laptop = opened
            laptop["type_id"] = trial
            laptop["base"] = opened
            #expect(try await send(client, .put, "/api/v1/yoga/students/\(ana)", cookie, laptop).status == .ok)
            var phone = opened
            phone["notes"] = "Knee injury"
            phone["base"] = opened
            let saved = try await send(client, .put, "/api/v1/yoga/students/\(ana)", cookie, phone)
            #expect(saved.status == .ok, "\(saved.bodyText)")
            let student = try saved.json()
            #expect(student["notes"] as? String == "Knee injury" && student["type_id"] as? String == trial, "\(student)")

            // Without a base, an edit is saved whole, as before.
            var whole = opened
            whole["notes"] = "Knee injury"
            let plain = try await send(client, .put, "/api/v1/yoga/students/\(ana)", cookie, whole).json()
            #expect(plain["type_id"] is NSNull)
            // A bad base is refused, and nothing is written.
            var bad = phone
            bad["notes"] = "changed"
            bad["base"] = ["name": "", "joined_on": "2026-01-10", "active": true, "notes": ""]
            #expect(try await send(client, .put, "/api/v1/yoga/students/\(ana)", cookie, bad).status == .unprocessableContent)
            bad["base"] = ["name": "Ana"]
            #expect(try await send(client, .put, "/api/v1/yoga/students/\(ana)", cookie, bad).status.code / 100 == 4)
            #expect(try await send(client, .get, "/api/v1/yoga/students/\(ana)", cookie).json()["notes"] as? String == "Knee injury")
            // An unknown type is refused with a base too.
            var other = opened
            other["base"] = opened
            other["notes"] = "x"
            other["type_id"] = "no-such-type"
            #expect(try await send(client, .put, "/api/v1/yoga/students/\(ana)", cookie, other).status.code / 100 == 4)
        }
    }

    /// Notes typed in a running class over what the device last saw (`was`): notes another device wrote meanwhile
    /// are kept, and the device's next save, made on its own, takes its own place beside them.
    @Test(arguments: DatabaseKind.allCases)
    func classNotesWrittenOnTwoDevicesKeepBoth(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            _ = try await send(client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Loft"], "notes": "Warm room"])
            func notes(_ body: [String: Any]) async throws -> String? {
                let answer = try await send(client, .patch, "/api/v1/yoga/class", cookie, body)
                #expect(answer.status == .ok, "\(answer.bodyText)")
                return (try answer.json()["class"] as? [String: Any])?["notes"] as? String
            }
            #expect(try await notes(["notes": "Warm room\nAna: knee", "was": "Warm room"]) == "Warm room\nAna: knee")
            // The tablet, still on "Warm room", wrote a line of its own.
            #expect(try await notes(["notes": "Warm room, windows open", "was": "Warm room"]) == "Warm room, windows open\nAna: knee")
            // The phone goes on from what it sent; the tablet's words stay.
            #expect(
                try await notes(["notes": "Warm room\nAna: knee, rest", "was": "Warm room\nAna: knee"])
                    == "Warm room, windows open\nAna: knee, rest")
            // Without `was` the notes are replaced, as before.
            #expect(try await notes(["notes": "Cold"]) == "Cold")
            // A bad `was` or notes too long: refused, nothing written.
            for bad: [String: Any] in [
                ["notes": "x", "was": 3], ["notes": String(repeating: "n", count: 4001), "was": "Cold"], ["was": ["Cold"]],
            ] {
                let refused = try await send(client, .patch, "/api/v1/yoga/class", cookie, bad)
                #expect(refused.status.code / 100 == 4, "\(bad.keys)")
            }
            let running = try await send(client, .get, "/api/v1/yoga/class", cookie).json()["class"] as? [String: Any]
            #expect(running?["notes"] as? String == "Cold")
        }
    }

    /// A past session corrected on two devices from forms opened on the same session: each keeps its change, an
    /// attendee added on one and another taken off on the other, notes both wrote.
    @Test(arguments: DatabaseKind.allCases)
    func aSessionCorrectedOnTwoDevicesKeepsBothCorrections(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let ana = try await addStudent(client, cookie, "Ana")
            let ben = try await addStudent(client, cookie, "Ben")
            let cy = try await addStudent(client, cookie, "Cy")
            _ = try await send(client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Loft"], "attendees": [ana, ben]])
            let saved = try await send(client, .post, "/api/v1/yoga/class/end", cookie, ["action": "save"]).json()
            let id = try #require((saved["session"] as? [String: Any])?["id"] as? String)
            let opened: [String: Any] = [
                "started_at": "2026-11-20T18:00:00Z", "ended_at": "2026-11-20T19:00:00Z", "attendees": [ana, ben], "notes": "Hips",
                "temperature_c": NSNull(),
            ]
            #expect(try await send(client, .put, "/api/v1/yoga/sessions/\(id)", cookie, opened).status == .ok)
            var phone = opened  // took Ben off, added Cy, wrote a note
            phone["attendees"] = [ana, cy]
            phone["notes"] = "Hips, then twists"
            phone["base"] = opened
            #expect(try await send(client, .put, "/api/v1/yoga/sessions/\(id)", cookie, phone).status == .ok)
            var tablet = opened  // from the same form: the end later, 12 °C, its own note
            tablet["ended_at"] = "2026-11-20T19:15:00Z"
            tablet["temperature_c"] = 12
            tablet["notes"] = "Bring blocks"
            tablet["base"] = opened
            let both = try await send(client, .put, "/api/v1/yoga/sessions/\(id)", cookie, tablet)
            #expect(both.status == .ok, "\(both.bodyText)")
            let session = try both.json()
            let names = (session["attendees"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.sorted()
            #expect(names == ["Ana", "Cy"], "\(session)")
            #expect(session["notes"] as? String == "Hips, then twists\nBring blocks")
            #expect(session["duration_seconds"] as? Int == 4500 && session["temperature_c"] as? Double == 12)
            // A bad base is refused, and nothing is written.
            var bad = tablet
            bad["notes"] = "changed"
            bad["base"] = ["started_at": "yesterday", "ended_at": "2026-11-20T19:00:00Z", "attendees": [String](), "notes": ""]
            #expect(try await send(client, .put, "/api/v1/yoga/sessions/\(id)", cookie, bad).status == .unprocessableContent)
            bad["base"] = ["notes": "Hips"]
            #expect(try await send(client, .put, "/api/v1/yoga/sessions/\(id)", cookie, bad).status.code / 100 == 4)
            let stored = try await send(client, .get, "/api/v1/yoga/sessions/\(id)", cookie).json()
            #expect(stored["notes"] as? String == "Hips, then twists\nBring blocks")
            // Without a base, a correction is saved whole, as before.
            let whole = try await send(client, .put, "/api/v1/yoga/sessions/\(id)", cookie, opened).json()
            #expect(whole["notes"] as? String == "Hips" && whole["attendance"] as? Int == 2)
        }
    }

    /// Notes two devices wrote, kept together, can pass the 4,000-character limit. Nobody wrote them that long, so
    /// the next edit made over them is taken (and a correction of the session that leaves them alone); an edit longer
    /// than both the limit and what it was written over is still refused.
    @Test(arguments: DatabaseKind.allCases)
    func notesMergedPastTheLimitCanStillBeEdited(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let (phone, tablet) = (String(repeating: "p", count: 2500), String(repeating: "t", count: 2500))
            _ = try await send(client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Loft"], "notes": ""])
            _ = try await send(client, .patch, "/api/v1/yoga/class", cookie, ["notes": phone, "was": ""])
            let merged = try await send(client, .patch, "/api/v1/yoga/class", cookie, ["notes": tablet, "was": ""])
            let both = try #require((try merged.json()["class"] as? [String: Any])?["notes"] as? String)
            #expect(both == phone + "\n" + tablet)
            let edited = try await send(client, .patch, "/api/v1/yoga/class", cookie, ["notes": both + "!", "was": both])
            #expect(edited.status.code / 100 == 4, "one more than it was: refused")
            let shorter = String(both.dropLast(100))
            let trimmed = try await send(client, .patch, "/api/v1/yoga/class", cookie, ["notes": shorter, "was": both])
            #expect(trimmed.status == .ok, "\(trimmed.bodyText)")
            let saved = try await send(client, .post, "/api/v1/yoga/class/end", cookie, ["action": "save"]).json()
            let session = try #require(saved["session"] as? [String: Any])
            let id = try #require(session["id"] as? String)
            let opened: [String: Any] = [
                "started_at": "2026-11-20T18:00:00Z", "ended_at": "2026-11-20T19:00:00Z", "attendees": [String](),
                "notes": shorter, "temperature_c": NSNull(),
            ]
            var later = opened
            later["ended_at"] = "2026-11-20T19:30:00Z"
            later["base"] = opened
            let corrected = try await send(client, .put, "/api/v1/yoga/sessions/\(id)", cookie, later)
            #expect(corrected.status == .ok, "\(corrected.bodyText)")
            #expect(try corrected.json()["notes"] as? String == shorter)
            var longer = later
            longer["notes"] = shorter + "!"
            #expect(try await send(client, .put, "/api/v1/yoga/sessions/\(id)", cookie, longer).status.code / 100 == 4)
            #expect(try await send(client, .get, "/api/v1/yoga/sessions/\(id)", cookie).json()["notes"] as? String == shorter)
        }
    }

    /// A venue renamed on one device and starred on another, each from what it knew: both are kept.
    @Test(arguments: DatabaseKind.allCases)
    func aVenueRenamedHereAndStarredThereKeepsBoth(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let loft = try #require(
                try await send(client, .post, "/api/v1/yoga/venues", cookie, ["name": "Loft"]).json()["id"] as? String)
            let known: [String: Any] = ["name": "Loft", "address": "", "favourite": false]
            var rename = known
            rename["name"] = "Sunrise Loft"
            rename["base"] = known
            #expect(try await send(client, .put, "/api/v1/yoga/venues/\(loft)", cookie, rename).status == .ok)
            var star = known
            star["favourite"] = true
            star["base"] = known
            let starred = try await send(client, .put, "/api/v1/yoga/venues/\(loft)", cookie, star)
            #expect(starred.status == .ok, "\(starred.bodyText)")
            let venue = try starred.json()
            #expect(venue["name"] as? String == "Sunrise Loft" && venue["favourite"] as? Bool == true, "\(venue)")
            var bad = star
            bad["base"] = ["name": "", "favourite": false]
            #expect(try await send(client, .put, "/api/v1/yoga/venues/\(loft)", cookie, bad).status == .unprocessableContent)
            var whole = known
            whole["favourite"] = false
            #expect(try await send(client, .put, "/api/v1/yoga/venues/\(loft)", cookie, whole).json()["name"] as? String == "Loft")
        }
    }

    /// A class held offline while another device deleted one of its students and its venue: it is recorded, with
    /// them as the device knew them (as a student or venue deleted after a class is kept), not refused as a whole.
    @Test(arguments: DatabaseKind.allCases)
    func aClassHeldOfflineKeepsAStudentAndAVenueDeletedElsewhereMeanwhile(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let ana = try await addStudent(client, cookie, "Ana")
            let ben = try await addStudent(client, cookie, "Ben")
            let loft = try #require(
                try await send(client, .post, "/api/v1/yoga/venues", cookie, ["name": "Loft"]).json()["id"] as? String)
            #expect(try await send(client, .delete, "/api/v1/yoga/students/\(ben)", cookie).status == .noContent)
            #expect(try await send(client, .delete, "/api/v1/yoga/venues/\(loft)", cookie).status == .noContent)
            let held: [String: Any] = [
                "venue_id": loft, "started_at": "2026-02-03T17:00:00Z", "ended_at": "2026-02-03T18:00:00Z",
                "attendees": [ana, ben, ben], "notes": "", "temperature_c": NSNull(),
                "as_known": ["attendees": [ana: "Ana", ben: "Ben"], "venue": ["name": "Loft", "address": "1 Main St"]],
            ]

            var bad = held
            bad["as_known"] = ["attendees": [ana: "Ana"], "venue": ["name": "Loft"]]
            #expect(try await send(client, .post, "/api/v1/yoga/sessions", cookie, bad).errorCode == "not_on_roster", "Ben's name unknown")
            bad["as_known"] = ["attendees": [ben: "  "], "venue": ["name": "Loft"]]
            #expect(try await send(client, .post, "/api/v1/yoga/sessions", cookie, bad).status == .unprocessableContent)
            bad["as_known"] = ["attendees": [ben: "Ben"], "venue": ["name": ""]]
            #expect(try await send(client, .post, "/api/v1/yoga/sessions", cookie, bad).status == .unprocessableContent)
            bad["as_known"] = ["attendees": [ben: "Ben"]]
            #expect(try await send(client, .post, "/api/v1/yoga/sessions", cookie, bad).status == .notFound, "the venue, unknown")
            #expect((try await send(client, .get, "/api/v1/yoga/sessions", cookie).json()["sessions"] as? [Any])?.isEmpty == true)

            let recorded = try await send(client, .post, "/api/v1/yoga/sessions", cookie, held)
            #expect(recorded.status == .created, "\(recorded.bodyText)")
            let session = try recorded.json()
            let venue = session["venue"] as? [String: Any]
            #expect(venue?["name"] as? String == "Loft" && venue?["address"] as? String == "1 Main St" && venue?["id"] is NSNull)
            let attendees = session["attendees"] as? [[String: Any]] ?? []
            #expect(session["attendance"] as? Int == 2)
            #expect(attendees.contains { $0["name"] as? String == "Ben" && $0["id"] is NSNull })
            #expect(attendees.contains { $0["name"] as? String == "Ana" && $0["id"] as? String == ana })
            #expect(
                (try await send(client, .get, "/api/v1/yoga/venues", cookie).json()["venues"] as? [Any])?.isEmpty == true, "not saved again"
            )

            // Its end corrected later (the same device's knowledge): Ben is kept once.
            let id = try #require(session["id"] as? String)
            let correction: [String: Any] = [
                "started_at": "2026-02-03T17:00:00Z", "ended_at": "2026-02-03T18:10:00Z", "attendees": [ana, ben], "notes": "",
                "as_known": ["attendees": [ben: "Ben"]],
            ]
            let corrected = try await send(client, .put, "/api/v1/yoga/sessions/\(id)", cookie, correction)
            #expect(corrected.status == .ok, "\(corrected.bodyText)")
            #expect(try corrected.json()["attendance"] as? Int == 2)
            var unnamed = correction
            unnamed["as_known"] = NSNull()
            #expect(try await send(client, .put, "/api/v1/yoga/sessions/\(id)", cookie, unnamed).errorCode == "not_on_roster")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aFirstVisitsRequestsAtOnceSeedTheTypesOnceAndATypedTemperatureIsKept(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for path in ["/api/v1/yoga/student-types", "/api/v1/yoga/settings", "/api/v1/yoga/student-types", "/api/v1/yoga/settings"] {
                    group.addTask { _ = try await send(client, .get, path, cookie) }
                }
                try await group.waitForAll()
            }
            let types = try await send(client, .get, "/api/v1/yoga/student-types", cookie).json()["types"] as? [[String: Any]]
            #expect(types?.compactMap { $0["name"] as? String } == ["drop-in", "member", "trial"])

            #expect(try await send(client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Loft"]]).status == .created)
            let typed = try await send(client, .patch, "/api/v1/yoga/class", cookie, ["temperature_c": 21.5])
            #expect((try typed.json()["class"] as? [String: Any])?["temperature_c"] as? Double == 21.5)
            let notesOnly = try await send(client, .patch, "/api/v1/yoga/class", cookie, ["notes": "warm"])
            #expect((try notesOnly.json()["class"] as? [String: Any])?["temperature_c"] as? Double == 21.5, "left out: kept")
            #expect(try await send(client, .patch, "/api/v1/yoga/class", cookie, ["temperature_c": 99]).status == .unprocessableContent)
            let cleared = try await client.execute(
                uri: "/api/v1/yoga/class", method: .patch, headers: .json(cookie: cookie),
                body: ByteBuffer(string: #"{"temperature_c":null}"#))
            #expect((try cleared.json()["class"] as? [String: Any])?["temperature_c"] is NSNull)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func rosterSearchSortStatsSettingsAndExports(kind: DatabaseKind) async throws {
        try await withTestApp(kind) { client, _ in
            let cookie = try await guest(client)
            let types = try await send(client, .get, "/api/v1/yoga/student-types", cookie).json()["types"] as? [[String: Any]]
            #expect(types?.compactMap { $0["name"] as? String } == ["drop-in", "member", "trial"])
            let member = try #require(types?[1]["id"] as? String)
            let zoe = try await send(
                client, .post, "/api/v1/yoga/students", cookie, ["name": "Zoë", "joined_on": "2025-03-01", "type_id": member]
            ).json()
            #expect(zoe["type_name"] as? String == "member")
            let ana = try await addStudent(client, cookie, "Ana")
            let found = try await send(client, .get, "/api/v1/yoga/students?q=zoe", cookie).json()["students"] as? [[String: Any]]
            #expect(found?.compactMap { $0["name"] as? String } == ["Zoë"])
            let byJoined =
                try await send(client, .get, "/api/v1/yoga/students?sort=joined&order=desc", cookie).json()["students"] as? [[String: Any]]
            #expect(byJoined?.compactMap { $0["name"] as? String } == ["Ana", "Zoë"])
            _ = try await send(client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Loft"], "attendees": [ana]])
            _ = try await send(client, .post, "/api/v1/yoga/class/end", cookie, ["action": "save"])
            #expect(
                try await send(client, .put, "/api/v1/yoga/settings", cookie, ["temperature_unit": "fahrenheit", "slipping_weeks": 2])
                    .status == .ok)
            #expect(try await send(client, .get, "/api/v1/yoga/settings", cookie).json()["temperature_unit"] as? String == "fahrenheit")
            let stats = try await send(client, .get, "/api/v1/yoga/stats", cookie).json()
            #expect((stats["students"] as? [[String: Any]])?.first?["name"] as? String == "Ana")
            #expect((stats["slipping"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Zoë"])
            #expect(stats["slipping_weeks"] as? Int == 2)
            let csv = try await send(client, .get, "/api/v1/yoga/export.csv?kind=attendance", cookie)
            #expect(csv.headers[.contentDisposition]?.contains("yoga-attendance.csv") == true)
            #expect(csv.bodyText.split(separator: "\r\n").count == 2 && csv.bodyText.contains(",Loft,\(ana),Ana"))
            // Deleting a type leaves its students without one.
            #expect(try await send(client, .delete, "/api/v1/yoga/student-types/\(member)", cookie).status == .noContent)
            let typeless = try await send(client, .get, "/api/v1/yoga/students?q=zo", cookie).json()["students"] as? [[String: Any]]
            #expect(typeless?.first?["type_id"] is NSNull)
            let export = try await send(client, .get, "/api/v1/account/export", cookie).json()
            #expect(((export["yoga"] as? [String: Any])?["sessions"] as? [Any])?.count == 1)
        }
    }

    /// The class lives in the database from check-in: a new server on the same database picks it up.
    @Test(arguments: DatabaseKind.allCases)
    func aClassInSessionSurvivesAServerRestart(kind: DatabaseKind) async throws {
        try await TestDatabase.withLocation(kind) { database, location in
            let first = try await buildApplication(testConfiguration, database: database)
            let cookie = try await first.test(.router) { client in
                let cookie = try await guest(client)
                let ana = try await addStudent(client, cookie, "Ana")
                #expect(
                    try await send(client, .post, "/api/v1/yoga/class", cookie, ["venue": ["name": "Loft"], "attendees": [ana]]).status
                        == .created)
                return cookie
            }
            let reopened = try await Database.open(location, logger: .init(label: "test"))
            let second = try await buildApplication(testConfiguration, database: reopened)
            try await second.test(.router) { client in
                let running = try await send(client, .get, "/api/v1/yoga/class", cookie).json()["class"] as? [String: Any]
                #expect((running?["venue"] as? [String: Any])?["name"] as? String == "Loft")
                #expect((running?["attendees"] as? [[String: Any]])?.first?["name"] as? String == "Ana")
            }
            await reopened.shutdown()
        }
    }
}
