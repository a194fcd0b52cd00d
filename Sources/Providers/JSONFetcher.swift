import AsyncHTTPClient
import CoreMetrics
import Foundation
import NIOCore
import NIOHTTP1

/// Why an outside service gave no usable answer. Callers degrade gracefully on any of these.
public enum ProviderError: Error, Equatable, Sendable {
    case unreachable(String)
    case timedOut
    case badStatus(Int)
    case tooLarge(limit: Int)
    case malformed(String)
}

/// GETs JSON from outside services with a short deadline and a size cap, so a slow, broken or huge answer
/// costs at most a few seconds and a bounded amount of memory.
public struct JSONFetcher: Sendable {
    let client: HTTPClient
    let timeout: TimeAmount
    let maximumBytes: Int

    public init(client: HTTPClient = .shared, timeout: Duration = .seconds(4), maximumBytes: Int = 2 << 20) {
        self.client = client
        self.timeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        self.maximumBytes = maximumBytes
    }

    public func get<T: Decodable & Sendable>(_ type: T.Type, from url: URL, headers: [(String, String)] = []) async throws(ProviderError)
        -> T
    {
        let body = try await bytes(from: url, accept: "application/json", headers: headers)
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch {
            throw .malformed(String(describing: error))
        }
    }

    /// The body as it is (a README, a story file, a picture), with the same deadline and size cap.
    public func bytes(from url: URL, accept: String = "*/*", headers: [(String, String)] = []) async throws(ProviderError) -> [UInt8] {
        do {
            let body = try await fetch(from: url, accept: accept, headers: headers)
            Counter(label: "trove_provider_calls_total", dimensions: [("host", url.host ?? ""), ("result", "ok")]).increment()
            return body
        } catch {
            Counter(label: "trove_provider_calls_total", dimensions: [("host", url.host ?? ""), ("result", "failed")]).increment()
            throw error
        }
    }

    private func fetch(from url: URL, accept: String, headers: [(String, String)]) async throws(ProviderError) -> [UInt8] {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: accept)
        request.headers.add(name: "User-Agent", value: "Trove/1.0")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let (client, timeout, maximumBytes, sent) = (self.client, self.timeout, self.maximumBytes, request)
        do {
            // The client's timeout ends when the headers arrive; a body sent a byte at a time would never
            // time out. So one deadline over the whole exchange, which does not wait for the cancelled request
            // to wind down: a task group would, and on a busy machine that took a 1 s deadline past 2.5 s.
            return try await Deadline.race(nanoseconds: UInt64(timeout.nanoseconds)) {
                let response = try await client.execute(sent, timeout: timeout)
                guard (200..<300).contains(Int(response.status.code)) else { throw ProviderError.badStatus(Int(response.status.code)) }
                return Array(try await response.body.collect(upTo: maximumBytes).readableBytesView)
            }
        } catch let error as ProviderError {
            throw error
        } catch is NIOTooManyBytesError {
            throw .tooLarge(limit: maximumBytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timedOut
        } catch {
            throw .unreachable(String(describing: error))
        }
    }
}
