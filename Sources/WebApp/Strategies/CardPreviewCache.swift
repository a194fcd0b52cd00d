import Foundation
import Hummingbird

/// Rendered preview images, most recently used kept, at most `capacity` of them (about 10–40 KB each).
///
/// Rendering takes a few milliseconds of CPU, so each image is drawn once; requests that arrive while it is
/// being drawn (chat services often fetch a link's image several times at once) wait for the same render.
actor CardPreviewCache {
    struct Key: Hashable {
        let cardID: Int
        let edition: Int
        /// The text itself rather than a hash of it: at most 280 characters, and it can never collide.
        let text: String
    }

    struct Preview: Sendable {
        let png: ByteBuffer
        let etag: String
    }

    private var entries: [Key: (render: Task<Preview, any Error>, lastUse: Int)] = [:]
    private var uses = 0
    let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// The cached preview for `key`, or the one `render` makes (which is then cached).
    func preview(_ key: Key, render: @escaping @Sendable () async throws -> [UInt8]) async throws -> Preview {
        uses += 1
        if let entry = entries[key] {
            entries[key]?.lastUse = uses
            return try await entry.render.value
        }
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        let task = Task { try await Self.make(render) }
        entries[key] = (task, uses)
        do {
            return try await task.value
        } catch {
            entries[key] = nil  // a failed render is not kept, so the next request tries again
            throw error
        }
    }

    /// Off the actor, so lookups of other cards don't wait behind a render.
    @concurrent private static func make(_ render: @Sendable () async throws -> [UInt8]) async throws -> Preview {
        let png = try await render()
        var hash = FNV1a()
        hash.add(Data(png))
        return Preview(png: ByteBuffer(bytes: png), etag: "\"\(hash.hex)\"")
    }
}
