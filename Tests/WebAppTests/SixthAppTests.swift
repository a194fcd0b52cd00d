import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit
import Storage
import TestSupport
import Testing

@testable import WebApp

/// docs/ADDING_AN_APP.md, done: a sixth app with a table, an API route, a page and its part of the account export,
/// all in this file. Nothing outside it names the app; the tests below show what each part does, and what leaving
/// one out costs.
enum NotesError: Error, HTTPMappedError {
    case empty

    var apiError: APIError { .validation("A note needs some words.") }
}

struct NotesApp: TroveApp {
    typealias DomainError = NotesError
    static let entry = AppEntry(slug: "notes", name: "Notes", description: "One line at a time.")
    static let migrations = [
        Migration(version: 900_001, name: "notes: one line each") { db in
            try await db.create(table: "notes")
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("text", type: .text, .notNull)
                .run()
        }
    ]
    static let templates = ["notes"]
    static var templateDirectory: URL? { SixthAppTests.templates }

    let shared: AppServices
    var exportSection: any ProfileDataSection { NotesSection(database: shared.database.sql) }

    init(_ shared: AppServices) { self.shared = shared }

    struct Note: Codable, APIAnswer { let text: String }

    func addRoutes(to routes: AppRoutes) {
        routes.api.post { request, context in
            let note = try await JSONBody.decode(Note.self, from: request)
            guard !note.text.isEmpty else { throw NotesError.empty }
            let profile = try await context.session.requireProfile()
            try await shared.database.sql.insert(into: "notes").columns("profile_id", "text")
                .values(SQLBind(profile.id), SQLBind(note.text)).run()
            return EditedResponse(status: .created, response: note)
        }
        routes.pages.get { _, context in
            let profile = try await context.session.requireProfile()
            let notes = try await NotesSection(database: shared.database.sql).notes(of: profile.id)
            return shared.pages.render("notes", title: "Notes", model: NotesPage(notes: notes), context: context)
        }
    }

    struct NotesPage { let notes: [String] }
}

struct NotesSection: ProfileDataSection {
    let database: any SQLDatabase
    let key = "notes"

    func notes(of profileID: String) async throws -> [String] {
        try await database.select().column("text").from("notes").where("profile_id", .equal, profileID).all()
            .map { try $0.decode(column: "text", as: String.self) }
    }

    func export(profileID: String) async throws -> any Encodable & Sendable { try await notes(of: profileID) }

    func importData(_ data: Data, profileID: String, on db: any SQLDatabase, report: inout ImportReport) async throws {
        for text in try JSONDecoder().decode([String].self, from: data) {
            try await db.insert(into: "notes").columns("profile_id", "text").values(SQLBind(profileID), SQLBind(text)).run()
            report.add("notes")
        }
    }
}

@Suite struct SixthAppTests {
    /// The sixth app's own template, written where `NotesApp.templateDirectory` says.
    static let templates: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trove-notes-templates")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? #"{{<layout}}{{$content}}<h1>Notes</h1><ul>{{#notes}}<li>{{.}}</li>{{/notes}}</ul>{{/content}}{{/layout}}"#
            .write(to: folder.appendingPathComponent("notes.mustache"), atomically: true, encoding: .utf8)
        return folder
    }()

    static let apps: [any TroveApp.Type] = TroveApps.all + [NotesApp.self]

    func withNotes(_ kind: DatabaseKind, _ body: @Sendable @escaping (any TestClientProtocol) async throws -> Void) async throws {
        try await TestDatabase.with(kind) { database in
            try await Migrator(database: database.sql, migrations: TroveApps.migrations(of: Self.apps)).migrate()
            let router = try await buildRouter(testConfiguration, database: database, logger: Logger(label: "test"), apps: Self.apps)
            try await Application(router: router).test(.router) { client in try await body(client) }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aSixthAppNeedsNothingOutsideItsOwnFile(kind: DatabaseKind) async throws {
        try await withNotes(kind) { client in
            let created = try await client.execute(uri: "/api/v1/notes", method: .post, headers: .json(), body: body(["text": "Breathe."]))
            #expect(created.status == .created)
            let cookie = try #require(created.sessionCookie)
            // Its own error, answered as it says (not a 500).
            let empty = try await client.execute(
                uri: "/api/v1/notes", method: .post, headers: .json(cookie: cookie), body: body(["text": ""]))
            #expect(empty.status == .unprocessableContent && empty.errorCode == "validation_failed")
            // Its page, in Trove's layout; the home page lists it.
            let page = try await client.execute(uri: "/notes", method: .get, headers: [.cookie: "trove_session=\(cookie)"])
            #expect(page.status == .ok && page.bodyText.contains("<li>Breathe.</li>") && page.bodyText.contains("<html"))
            let home = try await client.execute(uri: "/", method: .get, headers: [.cookie: "trove_session=\(cookie)"])
            #expect(home.bodyText.contains("One line at a time."))
            // Its part of the account export.
            let export = try await client.execute(
                uri: "/api/v1/account/export", method: .get, headers: [.cookie: "trove_session=\(cookie)"])
            #expect(try export.json()["notes"] as? [String] == ["Breathe."])
        }
    }

    @Test func leavingOutAPartFailsLoudly() async throws {
        // A page without its template: the server does not start.
        struct NoTemplate: TroveApp {
            typealias DomainError = NotesError
            static let entry = AppEntry(slug: "blank", name: "Blank", description: "")
            static let migrations: [Migration] = []
            static let templates = ["blank"]
            var exportSection: any ProfileDataSection { NotesSection(database: database) }
            let database: any SQLDatabase
            init(_ shared: AppServices) { database = shared.database.sql }
            func addRoutes(to routes: AppRoutes) {}
        }
        _ = try await TestDatabase.with(.sqlite) { database in
            await #expect(throws: MissingTemplate.self) {
                _ = try await buildRouter(
                    testConfiguration, database: database, logger: Logger(label: "test"), apps: TroveApps.all + [NoTemplate.self])
            }
        }
        // A route missing from openapi.json: OpenAPIDocumentTests names it.
        _ = try await TestDatabase.with(.sqlite) { database in
            try await Migrator(database: database.sql, migrations: TroveApps.migrations(of: Self.apps)).migrate()
            let router = try await buildRouter(testConfiguration, database: database, logger: Logger(label: "test"), apps: Self.apps)
            let undocumented = OpenAPIDocumentTests.operations(of: router).subtracting(try OpenAPIDocumentTests.documentedOperations())
            #expect(undocumented == ["post /api/v1/notes"])
        }
        // Its migration left out: its table is missing, and its route fails.
        _ = try await TestDatabase.with(.sqlite) { database in
            let router = try await buildRouter(testConfiguration, database: database, logger: Logger(label: "test"), apps: Self.apps)
            try await Application(router: router).test(.router) { client in
                let response = try await client.execute(uri: "/api/v1/notes", method: .post, headers: .json(), body: body(["text": "x"]))
                #expect(response.status == .internalServerError)
            }
        }
    }
}
