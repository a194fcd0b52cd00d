/// Random identifiers that must not be guessable (session ids, profile ids).
public enum Token {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// `length` characters of URL-safe base64 alphabet: 6 bits each, from the system's secure generator.
    public static func make(length: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))] })
    }
}
