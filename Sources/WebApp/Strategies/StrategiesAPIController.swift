import Foundation
import Hummingbird
import ObliqueStrategies
import Storage

/// The deck for everyone: list, search, one card, random draw, card of the day, sections, editions compared.
struct StrategiesAPIController {
    let deck: PublishedDeck
    let deckRepository: StrategyDeckRepository
    let profiles: StrategyProfileRepository

    struct Counterpart: Encodable, Sendable {
        let card: StrategyCard
        let label: String
        let diff: [Part]

        struct Part: Encodable {
            let text: String
            let kind: String
        }
    }

    /// `api`: the group at `/api/v1/strategies`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get(use: list)
            .get("editions", use: editions)
            .get("random", use: random)
            .post("random", use: recordedDraw)
            .get("today", use: today)
            .get("{id}", use: one)
            .get("{id}/editions", use: compare)
    }

    @Sendable func list(_ request: Request, context: TroveRequestContext) async throws -> APIValue<[StrategyCard]> {
        let snapshot = try await deck.current()
        let cards = try snapshot.cards(ofKnownEdition: try request.queryInt("edition", in: 0...10_000))
        return APIValue(CardText.search(cards, for: request.queryString("q") ?? ""))
    }

    @Sendable func editions(_ request: Request, context: TroveRequestContext) async throws -> APIValue<[EditionJSON]> {
        APIValue(try await deck.current().sections.map(EditionJSON.init))
    }

    /// One edition of the deck: its number, its label ("2nd edition (1978)") and how many cards it has.
    struct EditionJSON: Encodable, Sendable {
        let edition: Int
        let label: String
        let count: Int

        init(_ section: StrategyDeckRepository.Section) {
            edition = section.edition
            label = section.label
            count = section.count
        }
    }

    /// A random card, changing nothing: a GET any page can make must not write to a visitor's history.
    @Sendable func random(_ request: Request, context: TroveRequestContext) async throws -> StrategyCard {
        try await draw(request, profileID: context.session.profile?.id)
    }

    /// A random card, recorded in the profile's history (the page's Draw and `trove strategy`).
    @Sendable func recordedDraw(_ request: Request, context: TroveRequestContext) async throws -> StrategyCard {
        let profile = try await context.session.requireProfile()
        let card = try await draw(request, profileID: profile.id)
        try await profiles.recordDraw(profileID: profile.id, cardID: card.id)
        return card
    }

    private func draw(_ request: Request, profileID: String?) async throws -> StrategyCard {
        let cards = try await DrawSet(deck: deck, profiles: profiles).cards(for: request, profileID: profileID)
        var generator = SystemRandomNumberGenerator()
        guard let card = CardPicker.draw(from: cards, using: &generator) else { throw StrategyError.emptyDeck }
        return card
    }

    @Sendable func today(_ request: Request, context: TroveRequestContext) async throws -> StrategyCard {
        let identifier = request.queryString("tz") ?? "UTC"
        guard let timeZone = TimeZone(identifier: identifier) else { throw StrategyError.unknownTimeZone(identifier) }
        let editions = try await deck.current().cards.filter { (1...4).contains($0.edition) }
        guard let card = CardPicker.cardOfTheDay(from: editions, on: Date(), in: timeZone) else { throw StrategyError.emptyDeck }
        return card
    }

    @Sendable func one(_ request: Request, context: TroveRequestContext) async throws -> StrategyCard {
        try await card(request, context: context)
    }

    @Sendable func compare(_ request: Request, context: TroveRequestContext) async throws -> APIValue<[Counterpart]> {
        let card = try await card(request, context: context)
        return APIValue(try await counterparts(of: card))
    }

    func card(_ request: Request, context: TroveRequestContext) async throws -> StrategyCard {
        let id = try context.parameters.requireID("id")
        if let card = try await deck.current().byID[id] { return card }
        guard let card = try await deckRepository.card(id: id, visibleTo: context.session.profile?.id) else {
            throw StrategyError.cardNotFound
        }
        return card
    }

    func counterparts(of card: StrategyCard) async throws -> [Counterpart] {
        let snapshot = try await deck.current()
        let labels = Dictionary(try await deck.current().sections.map { ($0.edition, $0.label) }, uniquingKeysWith: { a, _ in a })
        return EditionComparison.counterparts(of: card, in: snapshot.cards).map { other in
            Counterpart(
                card: other, label: labels[other.edition] ?? EditionLabel.label(edition: other.edition, name: "Edition \(other.edition)"),
                diff: EditionComparison.diff(from: card.text, to: other.text).map { .init(text: $0.text, kind: $0.kind.rawValue) }
            )
        }
    }
}

/// A card is the most frequent answer (every draw): written by hand, in the original API's shape.
extension StrategyCard: JSONWritable, APIAnswer {
    // Public, as the card and Hummingbird's protocol are: APIAnswer's own would be internal.
    public func response(from request: Request, context: some RequestContext) -> Response { JSONResponse.make(self) }

    func write(to writer: inout JSONWriter) {
        writer.object { w in
            w.key("id")
            w.integer(id)
            w.key("edition")
            w.integer(edition)
            w.key("cardnumber")
            w.integer(cardNumber)
            w.key("strategy")
            w.string(text)
        }
    }
}
