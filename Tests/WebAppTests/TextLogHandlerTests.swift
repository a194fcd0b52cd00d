import Foundation
import Logging
import Testing

@testable import WebApp

@Suite struct TextLogHandlerTests {
    /// The lines a handler writes through a pipe, after `body` logs with it.
    func lines(_ body: (inout Logger) -> Void) throws -> [String] {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let output = LogOutput(fileDescriptor: ends[1], flushInterval: nil)
        var logger = Logger(label: "trove") { TextLogHandler(label: $0, output: output) }
        body(&logger)
        output.flush()
        close(ends[1])
        let text = String(decoding: FileHandle(fileDescriptor: ends[0]).readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").map(String.init)
    }

    @Test func theLoggersMetadataIsOnEveryLineAndALinesOwnWins() throws {
        let written = try lines { logger in
            logger[metadataKey: "hb.request.id"] = "abc"
            logger[metadataKey: "b"] = "1"
            logger.info("first")
            logger.info("second", metadata: ["b": "2", "a": "0"])
            logger[metadataKey: "b"] = nil
            logger.info("third")
        }
        #expect(written.count == 3)
        // swift-log's own format: the metadata sorted by key, before the source and the message.
        #expect(written[0].hasSuffix(" info trove: b=1 hb.request.id=abc [WebAppTests] first"))
        #expect(written[1].hasSuffix(" info trove: a=0 b=2 hb.request.id=abc [WebAppTests] second"))
        #expect(written[2].hasSuffix(" info trove: hb.request.id=abc [WebAppTests] third"))
        #expect(try lines { $0.info("bare") }.first?.hasSuffix(" info trove: [WebAppTests] bare") == true)
    }

    @Test func aLevelBelowTheLoggersWritesNothing() throws {
        let written = try lines { logger in
            logger.logLevel = .warning
            logger[metadataKey: "hb.request.id"] = "abc"
            logger.info("quiet")
            logger.warning("loud")
        }
        #expect(written.count == 1)
        #expect(written.first?.hasSuffix("warning trove: hb.request.id=abc [WebAppTests] loud") == true)
    }
}
