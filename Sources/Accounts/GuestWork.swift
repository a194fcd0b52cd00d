/// What a guest made on a device, counted by kind: the sign-in page says it will join the account
/// ("3 poems and 2 favourite cards from this device will join your account").
public struct GuestWork: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public let kind: String
        public let count: Int
        let singular: String
        let plural: String

        public init(kind: String, count: Int, singular: String, plural: String) {
            self.kind = kind
            self.count = count
            self.singular = singular
            self.plural = plural
        }

        public var phrase: String { "\(count) \(count == 1 ? singular : plural)" }
    }

    /// Only the kinds with something in them, in the order given.
    public let items: [Item]

    public init(items: [Item]) {
        self.items = items.filter { $0.count > 0 }
    }

    public var isEmpty: Bool { items.isEmpty }

    /// "3 poems", "3 poems and 2 favourite cards", "1 city, 3 poems and 2 favourite cards"; "" when empty.
    public var summary: String {
        let phrases = items.map(\.phrase)
        guard let last = phrases.last else { return "" }
        guard phrases.count > 1 else { return last }
        return phrases.dropLast().joined(separator: ", ") + " and " + last
    }
}
