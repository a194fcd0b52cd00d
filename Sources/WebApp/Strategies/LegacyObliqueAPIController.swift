import Hummingbird
import ObliqueStrategies

/// The original Oblique Strategies API's routes, read-only, for old clients and scripts: same JSON shape,
/// 404 where the original gave 404.
struct LegacyObliqueAPIController {
    let deck: PublishedDeck

    func addRoutes(to api: APIRoutes) {
        api.get("/api/oblique/all") { _, _ in JSONResponse.make(try await deck.current().cards) }
            .get("/api/oblique/draw") { _, _ in try await draw(edition: nil) }
            .get("/api/oblique/edition/{edition}/all") { _, context in
                let cards = try await deck.current().cards(edition: try edition(context))
                guard !cards.isEmpty else { throw StrategyError.cardNotFound }
                return JSONResponse.make(cards)
            }
            .get("/api/oblique/edition/{edition}/draw") { _, context in try await draw(edition: try edition(context)) }
            .get("/api/oblique/edition/{edition}/cardnumber/{number}") { _, context in
                let number = try context.parameters.requireID("number")
                guard let card = try await deck.current().cards(edition: try edition(context)).first(where: { $0.cardNumber == number })
                else {
                    throw StrategyError.cardNotFound
                }
                return JSONResponse.make(card)
            }
            .get("/api/oblique/id/{id}") { _, context in
                guard let card = try await deck.current().byID[try context.parameters.requireID("id")] else {
                    throw StrategyError.cardNotFound
                }
                return JSONResponse.make(card)
            }
    }

    private func edition(_ context: TroveRequestContext) throws -> Int {
        guard let text = context.parameters.get("edition"), let value = Int(text) else { throw StrategyError.cardNotFound }
        return value
    }

    private func draw(edition: Int?) async throws -> Response {
        var generator = SystemRandomNumberGenerator()
        guard let card = CardPicker.draw(from: try await deck.current().cards(edition: edition), using: &generator) else {
            throw StrategyError.cardNotFound
        }
        return JSONResponse.make(card)
    }
}
