/// One card: the original API's JSON shape, `{"id","edition","cardnumber","strategy"}`, kept exactly.
/// Published cards carry their edition (1–4, or 100+ for the extra sections); a profile's own cards have edition 0.
public struct StrategyCard: Codable, Sendable, Equatable, Hashable {
    public let id: Int
    public let edition: Int
    public let cardNumber: Int
    public let text: String

    public static let ownEdition = 0

    public init(id: Int, edition: Int, cardNumber: Int, text: String) {
        self.id = id
        self.edition = edition
        self.cardNumber = cardNumber
        self.text = text
    }

    enum CodingKeys: String, CodingKey {
        case id, edition
        case cardNumber = "cardnumber"
        case text = "strategy"
    }

    public var isOwn: Bool { edition == Self.ownEdition }
}

/// A section of the deck file: "Edition 1"…"Edition 4", or an extra collection such as "Extra".
public struct DeckSection: Sendable, Equatable {
    public let name: String
    public let cards: [String]

    public init(name: String, cards: [String]) {
        self.name = name
        self.cards = cards
    }

    /// "Edition N" → N; nil for the extra sections, which get numbers from 100 up when first imported.
    public var editionNumber: Int? {
        let prefix = "Edition "
        guard name.hasPrefix(prefix), let number = Int(name.dropFirst(prefix.count)), number > 0, number < 100 else { return nil }
        return number
    }

    public static let firstExtraEdition = 100
}

/// What can go wrong in the Oblique Strategies app, in its own words.
public enum StrategyError: Error, Equatable, Sendable {
    case cardNotFound
    case emptyDeck
    case editionNotFound(Int)
    case invalidText(String)
    case invalidNote(String)
    case unknownTimeZone(String)
    case historyEntryNotFound
}
