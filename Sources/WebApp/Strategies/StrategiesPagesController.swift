import Hummingbird
import ObliqueStrategies
import Storage

/// `/strategies` (the black screen and its views) and `/strategies/{id}` (a card's permalink page).
struct StrategiesPagesController {
    let pages: PageRenderer
    let api: StrategiesAPIController

    struct EditionItem: Hashable, Sendable {
        let number: Int
        let label: String
    }
    struct DeckModel: Hashable, Sendable { let editions: [EditionItem] }

    /// Templates read Swift property names, so the card is shown through the JSON field names.
    struct CardView {
        let id: Int
        let edition: Int
        let cardnumber: Int
        let strategy: String

        init(_ card: StrategyCard) {
            id = card.id
            edition = card.edition
            cardnumber = card.cardNumber
            strategy = card.text
        }
    }

    struct CardModel {
        let card: CardView
        let editionLabel: String
        let permalink: String
        let others: [Other]

        struct Other {
            let editionLabel: String
            let strategy: String
            let diff: [Part]
        }

        /// Mustache cannot compare strings, so each word group says which kind it is with flags.
        struct Part {
            let text: String
            let kind: String
            let added: Bool
            let removed: Bool
        }
    }

    /// `pages`: the group at `/strategies`.
    func addRoutes(to pages: RouterGroup<TroveRequestContext>) {
        pages.get { _, context in
            _ = try await context.session.requireProfile()
            let editions = try await api.deck.current().sections.map { EditionItem(number: $0.edition, label: $0.label) }
            return self.pages.renderKept(
                "strategies", title: "Oblique Strategies · Trove", model: DeckModel(editions: editions), context: context)
        }
        pages.get("{id}") { request, context in
            let card = try await api.card(request, context: context)
            let labels = Dictionary(try await api.deck.current().sections.map { ($0.edition, $0.label) }, uniquingKeysWith: { a, _ in a })
            let others = try await api.counterparts(of: card).map {
                CardModel.Other(
                    editionLabel: $0.label, strategy: $0.card.text,
                    diff: $0.diff.map { .init(text: $0.text, kind: $0.kind, added: $0.kind == "added", removed: $0.kind == "removed") }
                )
            }
            let model = CardModel(
                card: CardView(card),
                editionLabel: card.isOwn
                    ? "My card" : labels[card.edition] ?? EditionLabel.label(edition: card.edition, name: "Edition \(card.edition)"),
                permalink: Self.origin(of: request) + "/strategies/\(card.id)",
                others: others
            )
            return self.pages.render("strategy-card", title: "\(card.text) · Oblique Strategies", model: model, context: context)
        }
    }

    /// The site's own origin as the browser sees it (behind a TLS proxy too), for absolute links in Open Graph tags.
    static func origin(of request: Request) -> String {
        let scheme = request.headers[.xForwardedProto] == "https" ? "https" : (request.head.scheme ?? "http")
        return "\(scheme)://\(request.head.authority ?? "127.0.0.1")"
    }
}
