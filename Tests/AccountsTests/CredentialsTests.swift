import Accounts
import Testing

@Suite struct CredentialsTests {
    @Test func normalisesUsernameToLowerCaseWithoutSurroundingSpace() throws {
        let credentials = try Credentials(username: "  Ada.Lovelace_1 ", password: "analytical engine")
        #expect(credentials.username == "ada.lovelace_1")
    }

    @Test(arguments: ["ab", String(repeating: "a", count: 33), "with space", "émile", "semi;colon", ""])
    func refusesBadUsernames(_ username: String) {
        #expect(throws: AccountError.self) { try Credentials(username: username, password: "long enough") }
    }

    @Test func refusesShortPasswords() {
        #expect(throws: AccountError.invalidPassword("A password has at least 8 characters.")) {
            try Credentials(username: "ada", password: "1234567")
        }
    }

    @Test func refusesPasswordsBcryptWouldTruncate() throws {
        _ = try Credentials(username: "ada", password: String(repeating: "x", count: 72))
        #expect(throws: AccountError.self) { try Credentials(username: "ada", password: String(repeating: "x", count: 73)) }
        // 25 three-byte characters are 75 bytes though only 25 characters.
        #expect(throws: AccountError.self) { try Credentials(username: "ada", password: String(repeating: "€", count: 25)) }
    }

    @Test func tokensAreLongRandomAndURLSafe() {
        let tokens = (0..<100).map { _ in Token.make(length: 43) }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 43 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
    }
}
