import Hummingbird

extension ResponseBody {
    /// The body written into memory: for answers that are small or already in memory (JSON, a page).
    func collected() async throws -> ByteBuffer {
        let sink = Sink()
        try await write(Collector(sink: sink))
        return sink.buffer
    }

    private final class Sink: @unchecked Sendable {
        var buffer = ByteBuffer()
    }

    private struct Collector: ResponseBodyWriter {
        let sink: Sink

        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            sink.buffer.writeBuffer(&buffer)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
