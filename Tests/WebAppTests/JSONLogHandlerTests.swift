import Foundation
import Logging
import Testing

@testable import WebApp

@Suite struct JSONLogHandlerTests {
    @Test func aLineIsOneJSONObjectWithItsFieldsAndMetadata() throws {
        let line = JSONLogHandler.line(
            time: Date(timeIntervalSince1970: 1_795_000_805.1234), level: .info, label: "trove",
            message: "Quote \" backslash \\ newline \n tab \t bell \u{07} café", source: "WebApp",
            metadata: ["hb.request.id": "abc", "a": "1"])
        let text = String(decoding: line, as: UTF8.self)
        #expect(!text.contains("\n"), "one line")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: String])
        #expect(
            object == [
                "time": "2026-11-18T11:20:05.123Z", "level": "info", "label": "trove",
                "message": "Quote \" backslash \\ newline \n tab \t bell \u{07} café", "source": "WebApp", "hb.request.id": "abc", "a": "1",
            ])
        // The fixed fields first, then the metadata's keys in order.
        #expect(text.hasPrefix(#"{"time":"2026-11-18T11:20:05.123Z","level":"info","label":"trove","message":"#))
        #expect(text.hasSuffix(#""source":"WebApp","a":"1","hb.request.id":"abc"}"#))
    }

    @Test func timestampsAreUTCWithMilliseconds() {
        #expect(JSONLogHandler.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(JSONLogHandler.timestamp(Date(timeIntervalSince1970: 1_767_225_599.999)) == "2025-12-31T23:59:59.999Z")
        #expect(JSONLogHandler.timestamp(Date(timeIntervalSince1970: 1_772_323_200.05)) == "2026-03-01T00:00:00.050Z")
    }
}
