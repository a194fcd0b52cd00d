import Testing

@testable import WebApp

@Suite struct ClientAddressTests {
    let proxies = [IPNetwork("10.0.0.0/8")!, IPNetwork("127.0.0.1")!, IPNetwork("fd00::/8")!]

    @Test func networksParseAndContainTheirAddresses() {
        #expect(IPNetwork("10.0.0.0/8")?.contains("10.200.3.4") == true)
        #expect(IPNetwork("10.0.0.0/8")?.contains("11.0.0.1") == false)
        #expect(IPNetwork("192.168.1.0/24")?.contains("::ffff:192.168.1.9") == true)
        #expect(IPNetwork("2001:db8::/32")?.contains("2001:db8:1::7") == true)
        #expect(IPNetwork("2001:db8::/32")?.contains("2001:db9::7") == false)
        #expect(IPNetwork("10.0.0.0/8")?.contains("not an address") == false)
        for bad in ["", "10.0.0.0/33", "10.0.0/8", "::1/129", "example.org", "1.2.3.4/-1"] {
            #expect(IPNetwork(bad) == nil, "\(bad)")
        }
    }

    @Test func theClientIsTheNearestHopNotATrustedProxy() {
        // No trusted proxy in the way: the peer, whatever the header says.
        #expect(ClientAddress.resolve(remote: "203.0.113.7", forwardedFor: "1.1.1.1", trusted: proxies) == "203.0.113.7")
        #expect(ClientAddress.resolve(remote: "203.0.113.7", forwardedFor: nil, trusted: []) == "203.0.113.7")
        // Through trusted proxies: the rightmost address they did not add themselves.
        #expect(ClientAddress.resolve(remote: "10.0.0.2", forwardedFor: "198.51.100.9", trusted: proxies) == "198.51.100.9")
        #expect(
            ClientAddress.resolve(remote: "10.0.0.2", forwardedFor: "6.6.6.6, 198.51.100.9, 10.0.0.5", trusted: proxies) == "198.51.100.9")
        #expect(ClientAddress.resolve(remote: "10.0.0.2", forwardedFor: "garbage, 10.0.0.5", trusted: proxies) == "10.0.0.2")
        #expect(ClientAddress.resolve(remote: "10.0.0.2", forwardedFor: nil, trusted: proxies) == "10.0.0.2")
    }

    @Test func loopbackIsNeverLimitedAsAClient() {
        #expect(ClientAddress.limited(remote: "127.0.0.1", forwardedFor: "198.51.100.9", trusted: []) == nil)
        #expect(ClientAddress.limited(remote: "::1", forwardedFor: nil, trusted: []) == nil)
        #expect(ClientAddress.limited(remote: "127.0.0.1", forwardedFor: "198.51.100.9", trusted: proxies) == "198.51.100.9")
        #expect(ClientAddress.limited(remote: "203.0.113.7", forwardedFor: nil, trusted: []) == "203.0.113.7")
    }
}
