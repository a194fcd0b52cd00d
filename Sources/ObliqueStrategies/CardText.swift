import Foundation

/// Rules for text people write: own cards and draw notes.
public enum CardText {
    public static let ownCardLength = 1...280
    public static let noteMaximumLength = 500

    /// An own card's text, trimmed; 1 to 280 characters.
    public static func ownCard(_ text: String) throws(StrategyError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidText("A card needs some text.") }
        guard trimmed.count <= ownCardLength.upperBound else {
            throw .invalidText("A card holds at most 280 characters; this one has \(trimmed.count).")
        }
        return trimmed
    }

    /// A note on a draw, trimmed; empty means no note.
    public static func note(_ text: String?) throws(StrategyError) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= noteMaximumLength else { throw .invalidNote("A note holds at most 500 characters.") }
        return trimmed
    }

    /// Case- and accent-insensitive form for searching.
    public static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Cards whose text contains `query` ignoring case and accents.
    public static func search(_ cards: [StrategyCard], for query: String) -> [StrategyCard] {
        let needle = folded(query.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !needle.isEmpty else { return cards }
        return cards.filter { folded($0.text).contains(needle) }
    }
}
