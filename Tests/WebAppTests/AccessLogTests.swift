import Foundation
import Logging
import Testing

@testable import WebApp

@Suite struct AccessLogTests {
    let entry = AccessLog.Entry(method: "GET", path: #"/x?a="b\"#, status: 404, microseconds: 1234, requestID: "abc123")

    @Test func aJSONLineIsWhatJSONLogHandlerWritesForTheSameEvent() throws {
        var line: [UInt8] = []
        AccessLog.append(entry, format: .json, label: "trove", stamp: Array("2026-11-18T11:20:05".utf8), milliseconds: 7, to: &line)
        let expected = JSONLogHandler.line(
            time: Date(timeIntervalSince1970: 1_795_000_805.0071), level: .info, label: "trove", message: "Request", source: "WebApp",
            metadata: [
                "hb.request.method": "GET", "hb.request.path": #"/x?a="b\"#, "hb.response.status": "404",
                "hb.request.duration_us": "1234", "hb.request.id": "abc123",
            ])
        #expect(line == expected + [0x0A])
        #expect(try JSONSerialization.jsonObject(with: Data(line.dropLast())) is [String: String])
    }

    @Test func aTextLineIsSwiftLogsStreamFormat() {
        var line: [UInt8] = []
        AccessLog.append(entry, format: .text, label: "trove", stamp: Array("2026-11-18T11:20:05+0000".utf8), milliseconds: 7, to: &line)
        #expect(
            String(decoding: line, as: UTF8.self)
                == #"2026-11-18T11:20:05+0000 info trove: hb.request.duration_us=1234 hb.request.id=abc123 hb.request.method=GET "#
                + #"hb.request.path=/x?a="b\ hb.response.status=404 [WebApp] Request"# + "\n")
    }

    @Test func decimalsArePaddedAndWhole() {
        func decimal(_ value: UInt64, digits: Int = 1) -> String {
            var bytes: [UInt8] = []
            AccessLog.appendDecimal(value, to: &bytes, digits: digits)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(decimal(0) == "0")
        #expect(decimal(7, digits: 3) == "007")
        #expect(decimal(999, digits: 3) == "999")
        #expect(decimal(1234) == "1234")
        #expect(decimal(UInt64.max) == "18446744073709551615")
    }

    @Test func bufferedLinesWaitForAFlushAndAnUrgentLineTakesThemAlong() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let output = LogOutput(fileDescriptor: ends[1], flushInterval: nil)
        func read() -> String {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let count = Foundation.read(ends[0], &buffer, buffer.count)
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        }
        output.write(Array("one\n".utf8), urgent: false)
        output.write(Array("two\n".utf8), urgent: false)
        #expect(read() == "", "request lines wait in the buffer")
        output.write(Array("warning\n".utf8), urgent: true)
        #expect(read() == "one\ntwo\nwarning\n", "an urgent line goes out at once, after the lines before it")
        output.write(Array("three\n".utf8), urgent: false)
        output.flush()
        #expect(read() == "three\n")
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: LogOutput.bufferBytes)
        output.write(long, urgent: false)
        #expect(read().count == LogOutput.bufferBytes, "a full buffer goes out without waiting")
    }
}
