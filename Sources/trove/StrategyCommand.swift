import ArgumentParser
import Foundation
import ObliqueStrategies
import Storage

/// `trove strategy`: a card on the terminal, like `fortune`.
struct Strategy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print an Oblique Strategy (random, or the card of the day).")

    @Flag(help: "The card of the day instead of a random one.")
    var today = false

    @Option(help: "Draw only from this edition.")
    var edition: Int?

    @Option(help: "Time zone for --today, e.g. Europe/London. Default: the system's.")
    var tz: String?

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let db = try await CommandDatabase.open(database)
        let cards: [StrategyCard]
        do {
            cards = try await StrategyDeckRepository(database: db.sql).publishedCards()
            await db.shutdown()
        } catch {
            await db.shutdown()
            throw CleanExit.failure("Cannot read the deck: \(error)")
        }
        let chosen: StrategyCard?
        if today {
            guard let zone = tz.map({ TimeZone(identifier: $0) }) ?? TimeZone.current else {
                throw CleanExit.failure("'\(tz ?? "")' is not a time zone: use a name such as Europe/London.")
            }
            chosen = CardPicker.cardOfTheDay(from: cards.filter { (1...4).contains($0.edition) }, on: Date(), in: zone)
        } else {
            var generator = SystemRandomNumberGenerator()
            chosen = CardPicker.draw(from: cards.filter { edition == nil || $0.edition == edition }, using: &generator)
        }
        guard let card = chosen else {
            throw CleanExit.failure(
                "No cards to draw from: run `trove import strategies` first\(edition.map { ", or choose an edition other than \($0)" } ?? "")."
            )
        }
        print(card.text)
    }
}
