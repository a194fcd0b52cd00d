import Edits
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

    /// A note on a draw, trimmed; empty means no note. Written over `was` (the note as the writing device last saw
    /// it), it may be as long as that: two devices' notes kept together can pass the limit.
    public static func note(_ text: String?, over was: String? = nil) throws(StrategyError) -> String? {
        guard let trimmed = trimmedNote(text) else { return nil }
        guard fits(trimmed, limit: noteMaximumLength, over: was) else {
            throw .invalidNote("A note holds at most 500 characters.")
        }
        return trimmed
    }

    /// `text` trimmed, nil when nothing is left: a note as it is stored, whatever its length.
    public static func trimmedNote(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// The note a draw keeps when `sent` was written on a device that last saw the note `was`, and the draw has
    /// `current` now. A note changed elsewhere meanwhile (another device, or this one's earlier save still waiting
    /// to be sent) is not written over: both are kept, the one already there first, unless one holds the other.
    /// A note removed on one side and changed on the other keeps the change.
    public static func note(sent: String?, over was: String?, current: String?) -> String? {
        let kept = editedText(sent ?? "", base: was ?? "", current: current ?? "", joinedBy: " · ")
        return kept.isEmpty ? nil : kept
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
