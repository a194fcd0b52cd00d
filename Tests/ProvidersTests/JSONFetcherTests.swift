import Foundation
import Hummingbird
import HummingbirdTesting
import Providers
import Testing

/// The fetcher against a local fake service that answers well, slowly, wrongly, or too much.
@Suite struct JSONFetcherTests {
    struct Reading: Decodable, Equatable {
        let temperature: Double
    }

    func withFakeService(_ body: @Sendable @escaping (URL) async throws -> Void) async throws {
        let router = Router()
        router.get("/ok") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"temperature":21.5}"#))) }
        router.get("/slow") { _, _ in
            try await Task.sleep(for: .seconds(30))
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"temperature":1}"#)))
        }
        // Headers at once, then the body a byte at a time: every read is quick, the whole takes 34 s.
        router.get("/trickle") { _, _ in
            let body = Array(#"{"temperature":1}"#.utf8)
            return Response(
                status: .ok,
                body: ResponseBody(contentLength: body.count) { writer in
                    for byte in body {
                        try await writer.write(ByteBuffer(bytes: [byte]))
                        try await Task.sleep(for: .seconds(2))
                    }
                    try await writer.finish(nil)
                })
        }
        router.get("/error") { _, _ in Response(status: .internalServerError) }
        router.get("/malformed") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<html>not json"))) }
        router.get("/huge") { _, _ in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: UInt8(ascii: " "), count: 3 << 20)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body(URL(string: "http://127.0.0.1:\(client.port!)")!)
        }
    }

    let fetcher = JSONFetcher(timeout: .seconds(1), maximumBytes: 1 << 20)
    /// For answers that should arrive: a machine running every suite at once can starve the fake for a second or more.
    let patient = JSONFetcher(timeout: .seconds(10), maximumBytes: 1 << 20)

    @Test func decodesAGoodAnswer() async throws {
        try await withFakeService { (base: URL) async throws in
            #expect(try await patient.get(Reading.self, from: base.appendingPathComponent("ok")) == Reading(temperature: 21.5))
        }
    }

    @Test func givesUpOnASlowServiceWithinItsTimeout() async throws {
        try await withFakeService { (base: URL) async throws in
            let start = ContinuousClock.now
            await #expect(throws: ProviderError.timedOut) { try await fetcher.get(Reading.self, from: base.appendingPathComponent("slow")) }
            // A 1 s deadline (Deadline does not wait for the cancelled request), against an answer that would take
            // 30 or 34 s. The rest is the test process's own scheduling: worst seen 7.3 s, with browser suites
            // running beside `swift test` on the machine's two cores; half the slow answer still tells them apart.
            #expect(ContinuousClock.now - start < .seconds(15))
        }
    }

    @Test func givesUpOnABodyThatTricklesInWithinItsTimeout() async throws {
        try await withFakeService { (base: URL) async throws in
            let start = ContinuousClock.now
            await #expect(throws: ProviderError.timedOut) {
                try await fetcher.get(Reading.self, from: base.appendingPathComponent("trickle"))
            }
            // A 1 s deadline (Deadline does not wait for the cancelled request), against an answer that would take
            // 30 or 34 s. The rest is the test process's own scheduling: worst seen 7.3 s, with browser suites
            // running beside `swift test` on the machine's two cores; half the slow answer still tells them apart.
            #expect(ContinuousClock.now - start < .seconds(15))
        }
    }

    @Test func reportsErrorsMalformedAndOversizeAnswers() async throws {
        try await withFakeService { (base: URL) async throws in
            await #expect(throws: ProviderError.badStatus(500)) {
                try await patient.get(Reading.self, from: base.appendingPathComponent("error"))
            }
            await #expect(throws: ProviderError.self) {
                try await patient.get(Reading.self, from: base.appendingPathComponent("malformed"))
            }
            await #expect(throws: ProviderError.tooLarge(limit: 1 << 20)) {
                try await patient.get(Reading.self, from: base.appendingPathComponent("huge"))
            }
        }
    }

    @Test func reportsAnUnreachableService() async throws {
        await #expect(throws: ProviderError.self) {
            try await fetcher.get(Reading.self, from: URL(string: "http://127.0.0.1:1/nothing")!)
        }
    }
}
