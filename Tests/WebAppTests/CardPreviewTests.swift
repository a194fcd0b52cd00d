import DatabaseDrivers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@Suite struct CardPreviewTests {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    func honourID(_ client: some TestClientProtocol) async throws -> Int {
        let list = try await client.execute(uri: "/api/v1/strategies?q=honour", method: .get)
        return try #require((try JSONSerialization.jsonObject(with: Data(list.bodyText.utf8)) as? [[String: Any]])?.first?["id"] as? Int)
    }

    @Test func thePermalinkPageNamesAPreviewImageThatIsAPNG() async throws {
        try await withTestApp(.sqlite) { client, database in
            try await TestDeck.importAll(into: database)
            let id = try await honourID(client)
            let page = try await client.execute(
                uri: "/strategies/\(id)", method: .get, headers: [.accept: "text/html", HTTPField.Name("X-Forwarded-Proto")!: "https"])
            let imageURL = "https://localhost/strategies/\(id)/preview.png"  // the router test client's authority
            #expect(page.bodyText.contains("<meta property=\"og:image\" content=\"\(imageURL)\">"), "\(page.bodyText.prefix(3000))")
            #expect(page.bodyText.contains("<meta property=\"og:image:width\" content=\"1200\">"))
            #expect(page.bodyText.contains("<meta property=\"og:image:alt\" content=\"Honour thy error as a hidden intention\">"))
            #expect(page.bodyText.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"))

            let image = try await client.execute(uri: "/strategies/\(id)/preview.png", method: .get)
            #expect(image.status == .ok)
            #expect(image.headers[.contentType] == "image/png")
            #expect(image.headers[.cacheControl] == "public, max-age=86400")
            let bytes = Array(buffer: image.body)
            #expect(Array(bytes.prefix(8)) == Self.pngSignature)
            #expect(Array(bytes[16..<24]) == [0, 0, 0x04, 0xB0, 0, 0, 0x02, 0x76], "1200 × 630")
            #expect(bytes.count < 60_000)

            let etag = try #require(image.headers[.eTag])
            let again = try await client.execute(uri: "/strategies/\(id)/preview.png", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(try await client.execute(uri: "/strategies/\(id)/preview.png", method: .get).body == image.body)
            let head = try await client.execute(uri: "/strategies/\(id)/preview.png", method: .head)
            #expect(head.status == .ok && head.headers[.contentType] == "image/png" && head.body.readableBytes == 0)
        }
    }

    @Test func unknownAndOtherPeoplesCardsHaveNoPreview() async throws {
        try await withTestApp(.sqlite) { client, database in
            try await TestDeck.importAll(into: database)
            #expect(try await client.execute(uri: "/strategies/424242/preview.png", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/strategies/abc/preview.png", method: .get).status == .badRequest)

            let owner = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            let created = try await client.execute(
                uri: "/api/v1/strategies/mine", method: .post, headers: .json(cookie: owner),
                body: body(["strategy": "Go for a walk 🙂"]))
            let id = try #require(try created.json()["id"] as? Int)
            let own = try await client.execute(uri: "/strategies/\(id)/preview.png", method: .get, headers: .session(owner))
            #expect(own.status == .ok)
            #expect(own.headers[.cacheControl] == "private, no-cache")
            #expect(Array(Array(buffer: own.body).prefix(8)) == Self.pngSignature)

            let stranger = try #require(try await client.execute(uri: "/api/v1/account/me", method: .get).sessionCookie)
            #expect(
                try await client.execute(uri: "/strategies/\(id)/preview.png", method: .get, headers: .session(stranger)).status
                    == .notFound)
            #expect(try await client.execute(uri: "/strategies/\(id)/preview.png", method: .get).status == .notFound)
        }
    }
}
