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
        // A state-changing request sent again with the same Idempotency-Key gets the first answer back.
        // A row without a status is a request still in progress.
        Migration(version: 102, name: "accounts: idempotency keys and their first answers") { db in
            try await db.create(table: "idempotency_keys")
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("key", type: .text, .notNull)
                .column("fingerprint", type: .text, .notNull)
                .column("status", type: .bigint)
                .column("content_type", type: .text)
                .column("body", type: .blob)
                .column("created_at", type: .bigint, .notNull)
                .primaryKey("profile_id", "key")
                .run()
            try await db.create(index: "idempotency_keys_created_at").on("idempotency_keys").column("created_at").run()
        },
        // Failed sign-ins are counted per client address too (one address trying many usernames).
        Migration(version: 103, name: "accounts: the client address of each failed sign-in") { db in
            try await db.alter(table: "sign_in_failures").column("client", type: .text).run()
            try await db.create(index: "sign_in_failures_client").on("sign_in_failures").column("client").column("failed_at").run()
        },
        // A browser that signed in to an account before is known to it (OWASP's device cookies): its failed
        // sign-ins are counted apart, so someone guessing elsewhere cannot lock the person out of their own device.
        Migration(version: 1003, name: "accounts: known devices, and the device of each failed sign-in") { db in
            try await db.create(table: "known_devices")
                .column("token", type: .text, .primaryKey(autoIncrement: false))
                .column("profile_id", type: .text, .notNull, .references("profiles", "id", onDelete: .cascade))
                .column("created_at", type: .bigint, .notNull)
                .run()
            try await db.create(index: "known_devices_profile_id").on("known_devices").column("profile_id").run()
            try await db.create(index: "known_devices_created_at").on("known_devices").column("created_at").run()
            try await db.alter(table: "sign_in_failures").column("device", type: .text).run()
            try await db.create(index: "sign_in_failures_device").on("sign_in_failures").column("device").column("failed_at").run()
        },
    ]
}
