import Foundation
import SQLKit

/// The offline basemap City Roulette draws when map tiles cannot be fetched: one JSON document, imported by
/// `trove import basemap` and served as it is, with an ETag that changes with its content.
public struct BasemapRepository: Sendable {
    public struct Basemap: Sendable, Equatable {
        public let body: String
        public let etag: String
    }

    static let id = "world"
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func current() async throws -> Basemap? {
        guard let row = try await database.select().columns("body", "etag").from("city_basemaps").where("id", .equal, Self.id).first()
        else {
            return nil
        }
        return Basemap(body: try row.decode(column: "body", as: String.self), etag: try row.decode(column: "etag", as: String.self))
    }

    /// Stores `body` in place of the basemap before; returns its ETag.
    @discardableResult
    public func replace(with body: String, now: Date = Date()) async throws -> String {
        let etag = "\"basemap-\(Self.fingerprint(body))\""
        try await database.transaction { db in
            try await db.delete(from: "city_basemaps").where("id", .equal, Self.id).run()
            try await db.insert(into: "city_basemaps").columns("id", "body", "etag", "imported_at")
                .values(SQLBind(Self.id), SQLBind(body), SQLBind(etag), SQLBind(now.millisecondsSince1970)).run()
        }
        return etag
    }

    /// FNV-1a over the bytes: the same document always gets the same tag, on every instance.
    static func fingerprint(_ body: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
