import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Zlib

@testable import WebApp

/// Answers are gzipped for clients that accept it, and caches keep the two representations apart.
@Suite struct CompressionTests {
    @Test func readsAcceptEncodingAsBrowsersWriteIt() {
        #expect(ResponseCompression.acceptsGzip("gzip, deflate, br"))
        #expect(ResponseCompression.acceptsGzip("br;q=1.0, gzip;q=0.8"))
        #expect(ResponseCompression.acceptsGzip("*"))
        #expect(!ResponseCompression.acceptsGzip("gzip;q=0"))
        #expect(!ResponseCompression.acceptsGzip("identity"))
        #expect(!ResponseCompression.acceptsGzip(nil))
    }

    func gunzip(_ response: TestResponse) throws -> [UInt8] {
        try Zlib.inflate(Array(response.body.readableBytesView), format: .gzip, limit: 10 << 20)
    }

    @Test func staticFilesComeGzippedWithTheirOwnETag() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let home = try await client.execute(uri: "/", method: .get).bodyText
            let range = try #require(home.range(of: #"/static/[0-9a-f]{12}/css/app\.css"#, options: .regularExpression))
            let url = String(home[range])
            let plain = try await client.execute(uri: url, method: .get)
            let gzipped = try await client.execute(uri: url, method: .get, headers: [.acceptEncoding: "gzip, deflate, br"])
            #expect(plain.headers[.contentEncoding] == nil && plain.headers[.vary] == "Accept-Encoding")
            #expect(gzipped.headers[.contentEncoding] == "gzip" && gzipped.headers[.vary] == "Accept-Encoding")
            #expect(try gunzip(gzipped) == Array(plain.body.readableBytesView))
            #expect(
                gzipped.body.readableBytes * 2 < plain.body.readableBytes,
                "\(gzipped.body.readableBytes) of \(plain.body.readableBytes) bytes")
            let plainTag = try #require(plain.headers[.eTag])
            let gzipTag = try #require(gzipped.headers[.eTag])
            #expect(gzipTag == String(plainTag.dropLast()) + "-gz\"")
            let revalidated = try await client.execute(uri: url, method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: gzipTag])
            #expect(revalidated.status == .notModified && revalidated.headers[.eTag] == gzipTag)
            let plainAgain = try await client.execute(uri: url, method: .get, headers: [.ifNoneMatch: plainTag])
            #expect(plainAgain.status == .notModified && plainAgain.headers[.eTag] == plainTag)
        }
    }

    @Test func largeJSONIsGzippedAndSmallJSONIsNot() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let plain = try await client.execute(uri: "/api/openapi.json", method: .get)
            let gzipped = try await client.execute(uri: "/api/openapi.json", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(gzipped.headers[.contentEncoding] == "gzip")
            #expect(try gunzip(gzipped) == Array(plain.body.readableBytesView))
            #expect(
                gzipped.body.readableBytes * 5 < plain.body.readableBytes,
                "\(gzipped.body.readableBytes) of \(plain.body.readableBytes) bytes")
            let health = try await client.execute(uri: "/health", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(health.headers[.contentEncoding] == nil && health.bodyText.contains("ok"))
            let page = try await client.execute(uri: "/strategies", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(page.headers[.contentEncoding] == "gzip")
            #expect(String(decoding: try gunzip(page), as: UTF8.self).contains("<!doctype html>"))
        }
    }
}

@Suite struct CSVTests {
    @Test func numbersStayNumbersAndFormulasAreDefused() {
        #expect(CSV.field("-3.5") == "-3.5")
        #expect(CSV.field("+12") == "+12")
        #expect(CSV.field("=cmd|' /C calc'!A0") == "'=cmd|' /C calc'!A0")
        #expect(CSV.field("-not a number") == "'-not a number")
        #expect(CSV.field("@SUM(A1)") == "'@SUM(A1)")
        #expect(CSV.field("Firenze, Italia") == "\"Firenze, Italia\"")
        #expect(CSV.field("say \"om\"") == "\"say \"\"om\"\"\"")
        #expect(CSV.line(["a", "-3.5", "b,c"]) == "a,-3.5,\"b,c\"")
    }
}
