import Foundation
import SQLKit

/// The ids each of a profile's recent "Surprise Me" searches showed, so the next one can avoid them.
public struct SurpriseHistoryRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Newest first.
    public func recent(profileID: String, limit: Int) async throws -> [[Int]] {
        try await database.select().column("geonameids").from("city_surprise_history")
            .where("profile_id", .equal, profileID).orderBy(SQLColumn("id"), SQLDirection.descending).limit(limit).all()
            .map { try $0.decode(column: "geonameids", as: String.self).split(separator: ",").compactMap { Int($0) } }
    }

    /// Records a search and forgets all but the newest `keep`.
    public func record(_ ids: [Int], profileID: String, keep: Int, now: Date = Date()) async throws {
        try await database.transaction { db in
            try await db.insert(into: "city_surprise_history").columns("profile_id", "searched_at", "geonameids")
                .values(SQLBind(profileID), SQLBind(now.millisecondsSince1970), SQLBind(ids.map(String.init).joined(separator: ","))).run()
            let rows = try await db.select().column("id").from("city_surprise_history").where("profile_id", .equal, profileID)
                .orderBy(SQLColumn("id"), SQLDirection.descending).offset(keep).limit(1).all()
            if let cutoff = try rows.first?.decode(column: "id", as: Int.self) {
                try await db.delete(from: "city_surprise_history").where("profile_id", .equal, profileID)
                    .where("id", .lessThanOrEqual, SQLBind(cutoff)).run()
            }
        }
    }
}
