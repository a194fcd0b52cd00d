import SQLKit

enum AccountMigrations {
    static let all: [Migration] = [
        Migration(version: 101, name: "accounts: profiles, sessions, sign-in failures") { db in
            try await db.create(table: "profiles")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("username", type: .text, .unique)
                .column("password_hash", type: .text)
                .column("created_at", type: .bigint, .notNull)
                .run()
            try await db.create(table: "sessions")
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("created_at", type: .bigint, .notNull)
                .column("expires_at", type: .bigint, .notNull)
                .run()
            try await db.create(index: "sessions_profile_id").on("sessions").column("profile_id").run()
            try await db.create(index: "sessions_expires_at").on("sessions").column("expires_at").run()
            try await db.create(table: "sign_in_failures")
                .column("id", type: .bigint, .primaryKey)
                .column("username", type: .text, .notNull)
                .column("failed_at", type: .bigint, .notNull)
                .run()
            try await db.create(index: "sign_in_failures_username").on("sign_in_failures")
                .column("username").column("failed_at").run()
        },
    ]
}
