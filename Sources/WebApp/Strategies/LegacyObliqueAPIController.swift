import Hummingbird
import ObliqueStrategies

/// The original Oblique Strategies API's routes, read-only, for old clients and scripts: same JSON shape,
/// 404 where the original gave 404.
struct LegacyObliqueAPIController {
    let deck: PublishedDeck

    /// `oblique`: the group at `/api/oblique`.
    func addRoutes(to oblique: RouterGroup<TroveRequestContext>) {
        oblique.get("all") { _, _ in APIValue(try await deck.current().cards) }
            .get("draw") { _, _ in try await draw(edition: nil) }
            .get("edition/{edition}/all") { _, context in
                let cards = try await deck.current().cards(edition: try edition(context))
                guard !cards.isEmpty else { throw StrategyError.cardNotFound }
                return APIValue(cards)
            }
            .get("edition/{edition}/draw") { _, context in try await draw(edition: try edition(context)) }
            .get("edition/{edition}/cardnumber/{number}") { _, context in
                let number = try context.parameters.requireID("number")
                guard let card = try await deck.current().cards(edition: try edition(context)).first(where: { $0.cardNumber == number })
                else {
                    throw StrategyError.cardNotFound
                }
                return card
            }
            .get("id/{id}") { _, context in
                guard let card = try await deck.current().byID[try context.parameters.requireID("id")] else {
                    throw StrategyError.cardNotFound
                }
                return card
            }
    }

    private func edition(_ context: TroveRequestContext) throws -> Int {
        guard let text = context.parameters.get("edition"), let value = Int(text) else { throw StrategyError.cardNotFound }
        return value
    }

    private func draw(edition: Int?) async throws -> StrategyCard {
        var generator = SystemRandomNumberGenerator()
        guard let card = CardPicker.draw(from: try await deck.current().cards(edition: edition), using: &generator) else {
            throw StrategyError.cardNotFound
        }
        return card
    }
}
