import Foundation

/// An IPv4 or IPv6 network written as CIDR (`10.0.0.0/8`, `::1/128`, or one address).
public struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    let bytes: [UInt8]
    let prefix: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let address = parts.first, let bytes = IPNetwork.parse(address) else { return nil }
        let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
        guard let prefix, (0...bytes.count * 8).contains(prefix) else { return nil }
        self.bytes = bytes
        self.prefix = prefix
    }

    public var description: String {
        "\(IPNetwork.format(bytes))/\(prefix)"
    }

    func contains(_ address: String) -> Bool {
        guard let other = IPNetwork.parse(address), other.count == bytes.count else { return false }
        var remaining = prefix
        for index in bytes.indices where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            guard bytes[index] & mask == other[index] & mask else { return false }
            remaining -= bits
        }
        return true
    }

    /// The address's bytes (4 or 16); an IPv4 address written inside IPv6 (`::ffff:1.2.3.4`) is the IPv4 one.
    static func parse(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }

    static func format(_ bytes: [UInt8]) -> String {
        bytes.count == 4
            ? bytes.map(String.init).joined(separator: ".")
            : stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(
                separator: ":")
    }
}

/// Who sent a request: the connection's address, unless that is a trusted proxy, in which case the nearest
/// address in `X-Forwarded-For` that is not a trusted proxy (a client can write anything at the start of that
/// header; only what trusted proxies appended counts).
enum ClientAddress {
    static let loopback = [IPNetwork("127.0.0.0/8")!, IPNetwork("::1")!]

    /// The client to count per-client limits against, or nil: a loopback peer is a proxy on this machine (or a
    /// local test), never a client; without a trusted proxy in between, every visitor would share its count.
    static func limited(remote: String?, forwardedFor: String?, trusted: [IPNetwork]) -> String? {
        guard let client = resolve(remote: remote, forwardedFor: forwardedFor, trusted: trusted) else { return nil }
        return loopback.contains { $0.contains(client) } ? nil : client
    }

    static func resolve(remote: String?, forwardedFor: String?, trusted: [IPNetwork]) -> String? {
        guard let remote, trusted.contains(where: { $0.contains(remote) }), let forwardedFor else { return remote }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for hop in hops.reversed() {
            guard IPNetwork.parse(hop) != nil else { return remote }
            if !trusted.contains(where: { $0.contains(hop) }) { return hop }
        }
        return hops.first ?? remote
    }
}
