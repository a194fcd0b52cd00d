import Accounts
import Foundation
import SQLKit
import Storage

/// What an account import added, by kind, and what it left out and why.
struct ImportReport: APIAnswer, Sendable {
    var added: [String: Int] = [:]
    var skipped: [String] = []

    mutating func add(_ kind: String, _ count: Int = 1) {
        if count > 0 { added[kind, default: 0] += count }
    }
}

/// Reads an account export (`ProfileExporter`'s document, `trove-export/2`, from this Trove or another) into a
/// profile that holds nothing yet, so a person can move between servers. Each app's section is read by the app
/// (`ProfileDataSection.importData`), all in one transaction: an import lands whole or not at all. Records get
/// this server's ids (references between them follow); what cannot be brought (a story or a deck card this server
/// does not have) is listed in the report.
struct ProfileImporter: Sendable {
    static let format = "trove-export/2"
    /// The format before the API took snake_case keys: read by renaming its keys (`legacyKeys`).
    static let camelCaseFormat = "trove-export/1"
    static let legacyKeys = [
        "wordSets": "word_sets", "builtIn": "built_in", "publicId": "public_id", "hasBackground": "has_background",
        "updatedAt": "updated_at", "ownCards": "own_cards", "drawnAt": "drawn_at", "countryCode": "country_code",
        "addedAt": "added_at", "recentSurprises": "recent_surprises", "storyID": "story_id", "endingsFound": "endings_found",
        "studentTypes": "student_types", "classInSession": "class_in_session",
    ]

    let database: any SQLDatabase
    let sections: [any ProfileDataSection]
    let merge: GuestMerge

    /// An export's size in values and depth: a year of heavy use (thousands of sessions, poems and cities) holds a
    /// few hundred thousand values, nested under ten deep.
    static let limits = JSONShapeLimits(maximumDepth: 32, maximumValues: 1_000_000)

    func importDocument(_ data: Data, into profileID: String) async throws -> ImportReport {
        let sections = sections
        // Checked, parsed and split off the event loops: a document of 20 MB takes seconds to parse.
        let ready = try await offEventLoops { try Self.sectionData(data, sections: sections) }
        guard try await merge.work(of: profileID).isEmpty else {
            throw APIError(
                .conflict, code: "profile_not_empty",
                message: "An export can be imported only into a profile with nothing in it yet: sign up for a new account and import there."
            )
        }
        return try await database.transaction { db in
            var report = ImportReport()
            for part in ready {
                do {
                    try await part.section.importData(part.data, profileID: profileID, on: db, report: &report)
                } catch let error as DecodingError {
                    throw APIError(
                        .unprocessableContent, code: "invalid_export",
                        message: "'\(part.section.key)' is not as Trove writes it: \(JSONBody.describe(error))")
                }
            }
            return report
        }
    }

    /// Each app's section of the export document `data`, as JSON of its own.
    private static func sectionData(_ data: Data, sections: [any ProfileDataSection]) throws -> [UncheckedPart] {
        do {
            try limits.check(data)
        } catch let error as JSONBodyError {
            throw error.apiError
        }
        guard var document = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw APIError(.unprocessableContent, code: "invalid_export", message: "The file is not a Trove account export (JSON).")
        }
        if document["format"] as? String == Self.camelCaseFormat, let renamed = Self.renamingLegacyKeys(document) as? [String: Any] {
            document = renamed
        } else if document["format"] as? String != Self.format {
            throw APIError(
                .unprocessableContent, code: "invalid_export",
                message: "The file is not a Trove account export: its \"format\" is not \"\(Self.format)\".")
        }
        var parts: [UncheckedPart] = []
        for section in sections {
            guard let value = document[section.key] else { continue }
            guard value is [String: Any] else {
                throw APIError(.unprocessableContent, code: "invalid_export", message: "'\(section.key)' must be an object.")
            }
            parts.append(UncheckedPart(section: section, data: try JSONSerialization.data(withJSONObject: value)))
        }
        return parts
    }

    /// `value` with every key of `legacyKeys` renamed, at any depth (a board's own old keys its decoder reads).
    static func renamingLegacyKeys(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            return Dictionary(object.map { (legacyKeys[$0.key] ?? $0.key, renamingLegacyKeys($0.value)) }, uniquingKeysWith: { a, _ in a })
        }
        if let array = value as? [Any] { return array.map(renamingLegacyKeys) }
        return value
    }

    private struct UncheckedPart: Sendable {
        let section: any ProfileDataSection
        let data: Data
    }
}
