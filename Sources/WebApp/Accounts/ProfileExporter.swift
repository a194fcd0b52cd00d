import Accounts
import Foundation
import SQLKit

/// One app's part of a profile's data export, under its own key in the document.
protocol ProfileDataSection: Sendable {
    var key: String { get }
    func export(profileID: String) async throws -> any Encodable & Sendable
    /// Adds this app's part of an export (`data`, as `export` wrote it, perhaps on another server) to the profile,
    /// through `db`, the import's transaction (`ProfileImporter`).
    func importData(_ data: Data, profileID: String, on db: any SQLDatabase, report: inout ImportReport) async throws
}

/// Builds the account export: `{"format":…, "exported_at":…, "profile":{…}, "<app>":{…}, …}`.
struct ProfileExporter: Sendable {
    let sections: [any ProfileDataSection]

    struct Document: APIAnswer, Sendable {
        let format: String
        let exportedAt: Date
        let profile: AccountAPIController.ProfileBody.Item
        let sections: [(key: String, value: any Encodable & Sendable)]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: NamedKey.self)
            try container.encode(format, forKey: NamedKey("format"))
            try container.encode(exportedAt, forKey: NamedKey("exported_at"))
            try container.encode(profile, forKey: NamedKey("profile"))
            for section in sections {
                try container.encode(section.value, forKey: NamedKey(section.key))
            }
        }
    }

    func export(_ profile: Profile, now: Date = Date()) async throws -> Document {
        var parts: [(key: String, value: any Encodable & Sendable)] = []
        for section in sections {
            parts.append((section.key, try await section.export(profileID: profile.id)))
        }
        return Document(
            format: ProfileImporter.format, exportedAt: now, profile: AccountAPIController.ProfileBody(profile).profile,
            sections: parts
        )
    }
}
