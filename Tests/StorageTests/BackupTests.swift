import DatabaseDrivers
import Foundation
import SQLKit
import Storage
import TestSupport
import Testing
import Zlib

/// A backup restores into an empty database of either kind with every row as it was; a damaged one writes nothing.
@Suite struct BackupTests {
    /// Every app's rows (GuestMergeTests' world), a picture's bytes, coordinates and NULLs.
    func fill(_ database: Database) async throws {
        let db = database.sql
        let world = try await GuestMergeTests().makeWorld(db)
        try await db.raw(
            """
            INSERT INTO poetry_backgrounds (poem_id, content_type, bytes) VALUES ('poem-guest', 'image/gif', \(bind: Data([0x47, 0x49, 0x46, 0, 255, 10, 13])))
            """
        ).run()
        try await db.raw(
            """
            INSERT INTO yoga_venues (id, profile_id, name, address, latitude, longitude, source, favourite, created_at)
            VALUES ('venue-2', \(bind: world.account), 'Pier', 'Quay 1', 43.77012345678, -11.25, 'typed', \(bind: true), 7)
            """
        ).run()
    }

    func backUp(_ database: Database) async throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trove-backup-\(UUID().uuidString).gz")
        let summary = try await DatabaseBackup(database: database).backUp(to: url)
        #expect(summary.rows > 40 && summary.tables > 20)
        return url
    }

    @Test(arguments: DatabaseKind.allCases)
    func aBackupRestoresIntoEitherKindWithEveryRow(source: DatabaseKind) async throws {
        try await TestDatabase.with(source) { original in
            try await fill(original)
            let expected = try await DatabaseBackup(database: original).digest()
            #expect(expected["poetry_backgrounds"]?.hasPrefix("1 rows") == true && expected["yoga_venues"]?.hasPrefix("2 rows") == true)
            let archive = try await backUp(original)
            defer { try? FileManager.default.removeItem(at: archive) }
            for target in DatabaseKind.allCases {
                try await TestDatabase.with(target) { restored in
                    let summary = try await DatabaseBackup(database: restored).restore(from: archive)
                    #expect(summary.rows > 40)
                    #expect(try await DatabaseBackup(database: restored).digest() == expected, "\(source) → \(target)")
                    // New rows get new ids after restored ones (PostgreSQL's sequences follow the restored ids).
                    try await restored.sql.raw(
                        "INSERT INTO strategy_draws (profile_id, card_id, drawn_at) SELECT profile_id, card_id, 9 FROM strategy_draws LIMIT 1"
                    ).run()
                }
            }
        }
    }

    @Test func sqliteToPostgresToSQLiteIsTheSame() async throws {
        try await TestDatabase.with(.sqlite) { first in
            try await fill(first)
            let expected = try await DatabaseBackup(database: first).digest()
            let one = try await backUp(first)
            defer { try? FileManager.default.removeItem(at: one) }
            try await TestDatabase.with(.postgres) { middle in
                _ = try await DatabaseBackup(database: middle).restore(from: one)
                let two = try await backUp(middle)
                defer { try? FileManager.default.removeItem(at: two) }
                try await TestDatabase.with(.sqlite) { last in
                    _ = try await DatabaseBackup(database: last).restore(from: two)
                    #expect(try await DatabaseBackup(database: last).digest() == expected)
                }
            }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aDamagedOrCutBackupIsRefusedAndNothingIsWritten(kind: DatabaseKind) async throws {
        try await TestDatabase.with(.sqlite) { original in
            try await fill(original)
            let archive = try await backUp(original)
            defer { try? FileManager.default.removeItem(at: archive) }
            let bytes = try Data(contentsOf: archive)
            let folder = FileManager.default.temporaryDirectory
            // Cut short; one character of a row changed and the whole recompressed (so gzip's own check passes and only
            // the backup's checksum can tell). A bit flipped in the compressed bytes is not used: it can land in a
            // Huffman code length no symbol uses and change nothing, and then restoring is right.
            let cut = folder.appendingPathComponent("cut-\(UUID().uuidString).gz")
            try bytes.prefix(bytes.count * 2 / 3).write(to: cut)
            var text = try Zlib.inflate([UInt8](bytes), format: .gzip, limit: 64 << 20)
            let middle = try #require(
                text.indices.dropFirst(text.count / 2).first { text[$0] >= UInt8(ascii: "a") && text[$0] < UInt8(ascii: "z") })
            text[middle] += 1
            let altered = folder.appendingPathComponent("altered-\(UUID().uuidString).gz")
            try Data(Zlib.deflate(text, format: .gzip)).write(to: altered)
            let notABackup = folder.appendingPathComponent("other-\(UUID().uuidString).gz")
            try Data("{\"hello\":1}\n".utf8).write(to: notABackup)
            defer { for url in [cut, altered, notABackup] { try? FileManager.default.removeItem(at: url) } }
            try await TestDatabase.with(kind) { target in
                for damaged in [cut, altered, notABackup] {
                    await #expect(throws: BackupArchive.Failure.self, "\(damaged.lastPathComponent)") {
                        try await DatabaseBackup(database: target).restore(from: damaged)
                    }
                    let profiles = try await target.sql.raw("SELECT COUNT(*) AS n FROM profiles").first()?.decode(column: "n", as: Int.self)
                    #expect(profiles == 0, "nothing written from \(damaged.lastPathComponent)")
                }
                // A database with something in it is not overwritten.
                _ = try await DatabaseBackup(database: target).restore(from: archive)
                await #expect(throws: BackupArchive.Failure.self) { try await DatabaseBackup(database: target).restore(from: archive) }
            }
        }
    }
}
