import Foundation
import ObliqueStrategies
import Testing

/// A seeded generator so draws are repeatable.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct CardPickerTests {
    let deck = (1...20).map { StrategyCard(id: $0, edition: $0 <= 10 ? 1 : 2, cardNumber: ($0 - 1) % 10 + 1, text: "Card \($0)") }

    @Test func drawsAreUniformOverTheChosenSetAndNeverOutsideIt() {
        var generator = SeededGenerator(state: 42)
        let editionTwo = deck.filter { $0.edition == 2 }
        var counts: [Int: Int] = [:]
        let draws = 20_000
        for _ in 0..<draws {
            let card = CardPicker.draw(from: editionTwo, using: &generator)!
            counts[card.id, default: 0] += 1
        }
        #expect(Set(counts.keys) == Set(editionTwo.map(\.id)))
        // Chi-squared with 9 degrees of freedom: 27.9 is the 0.1% critical value.
        let expected = Double(draws) / Double(editionTwo.count)
        let chiSquared = counts.values.reduce(0.0) { $0 + pow(Double($1) - expected, 2) / expected }
        #expect(chiSquared < 27.9)
    }

    @Test func anEmptySetDrawsNothing() {
        var generator = SeededGenerator(state: 1)
        #expect(CardPicker.draw(from: [], using: &generator) == nil)
        #expect(CardPicker.shuffleDraw(from: [], alreadyDrawn: [], using: &generator) == nil)
    }

    @Test func theShuffleNeverRepeatsUntilTheSetIsExhausted() {
        var generator = SeededGenerator(state: 7)
        var drawn: Set<Int> = []
        for expectedRemaining in stride(from: deck.count - 1, through: 0, by: -1) {
            let result = CardPicker.shuffleDraw(from: deck, alreadyDrawn: drawn, using: &generator)!
            #expect(!drawn.contains(result.card.id))
            #expect(result.remaining == expectedRemaining)
            #expect(!result.reshuffled)
            drawn.insert(result.card.id)
        }
        let next = CardPicker.shuffleDraw(from: deck, alreadyDrawn: drawn, using: &generator)!
        #expect(next.reshuffled)
        #expect(next.remaining == deck.count - 1)
    }

    @Test func theCardOfTheDayIsTheSameAllDayAndVariesAcrossDays() {
        let london = TimeZone(identifier: "Europe/London")!
        let morning = Date(timeIntervalSince1970: 1_800_000_000 - 1_800_000_000.truncatingRemainder(dividingBy: 86_400) + 3_600)
        let evening = morning.addingTimeInterval(20 * 3_600)
        #expect(
            CardPicker.cardOfTheDay(from: deck, on: morning, in: london) == CardPicker.cardOfTheDay(from: deck, on: evening, in: london))
        // The order of the input does not matter: everyone gets the same card.
        #expect(
            CardPicker.cardOfTheDay(from: deck.reversed(), on: morning, in: london)
                == CardPicker.cardOfTheDay(from: deck, on: morning, in: london))
        let month = (0..<30).compactMap {
            CardPicker.cardOfTheDay(from: deck, on: morning.addingTimeInterval(Double($0) * 86_400), in: london)
        }
        let changes = zip(month, month.dropFirst()).filter { $0 != $1 }.count
        #expect(changes >= 25, "the card changed on only \(changes) of 29 days")
    }

    /// The page chooses the card of the day the same way without the server (strategies/logic.js); its test
    /// (tests/js/strategies-logic.test.mjs) pins these same cards.
    @Test func theCardOfTheDayIsPinnedForThePageToMatch() {
        let utc = TimeZone(identifier: "UTC")!
        let noon = { (day: Int) in Date(timeIntervalSince1970: Double(day) * 86_400 + 43_200) }
        #expect(CardPicker.cardOfTheDay(from: deck, on: noon(20_785), in: utc)?.id == 12)  // 2026-11-28
        #expect(CardPicker.cardOfTheDay(from: deck, on: noon(20_786), in: utc)?.id == 16)
        #expect(CardPicker.cardOfTheDay(from: deck, on: noon(1), in: utc)?.id == 6)
    }

    @Test func theDayFollowsTheTimeZone() {
        // 23:30 UTC is already the next day in Tokyo.
        let lateUTC = Date(timeIntervalSince1970: 86_400 * 20_000 + 23.5 * 3_600)
        #expect(CardPicker.dayNumber(of: lateUTC, in: TimeZone(identifier: "UTC")!) == 20_000)
        #expect(CardPicker.dayNumber(of: lateUTC, in: TimeZone(identifier: "Asia/Tokyo")!) == 20_001)
    }
}
