import Foundation

/// Choosing cards: a uniform draw, the shuffle that avoids repeats, and the card of the day.
public enum CardPicker {
    /// A card chosen uniformly from `cards`; nil when there are none.
    public static func draw<G: RandomNumberGenerator>(from cards: [StrategyCard], using generator: inout G) -> StrategyCard? {
        cards.randomElement(using: &generator)
    }

    public struct ShuffleDraw: Sendable, Equatable {
        public let card: StrategyCard
        /// Cards of the set still to come after this one.
        public let remaining: Int
        /// True when the set had been exhausted and this draw began a new round.
        public let reshuffled: Bool
    }

    /// Draws without repeats: only cards not yet drawn in this round; when none are left, a new round begins.
    public static func shuffleDraw<G: RandomNumberGenerator>(
        from cards: [StrategyCard], alreadyDrawn: Set<Int>, using generator: inout G
    ) -> ShuffleDraw? {
        let left = cards.filter { !alreadyDrawn.contains($0.id) }
        if let card = left.randomElement(using: &generator) {
            return ShuffleDraw(card: card, remaining: left.count - 1, reshuffled: false)
        }
        guard let card = cards.randomElement(using: &generator) else { return nil }
        return ShuffleDraw(card: card, remaining: cards.count - 1, reshuffled: true)
    }

    /// The same card for everyone on a calendar day in `timeZone`, reproducible, and different from the day
    /// before on most days: the day number is mixed (SplitMix64) and taken modulo the deck's size.
    public static func cardOfTheDay(from cards: [StrategyCard], on date: Date, in timeZone: TimeZone) -> StrategyCard? {
        guard !cards.isEmpty else { return nil }
        let sorted = cards.sorted { ($0.edition, $0.cardNumber, $0.id) < ($1.edition, $1.cardNumber, $1.id) }
        let index = Int(splitMix64(UInt64(bitPattern: Int64(dayNumber(of: date, in: timeZone)))) % UInt64(sorted.count))
        return sorted[index]
    }

    /// Days since 1970-01-01 of the calendar date that `date` falls on in `timeZone`.
    public static func dayNumber(of date: Date, in timeZone: TimeZone) -> Int {
        let seconds = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        return Int((seconds / 86_400).rounded(.down))
    }

    static func splitMix64(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
