import Hummingbird
import ObliqueStrategies
import Storage

/// Which cards a draw chooses from: the published editions, the profile's own cards, or both.
enum DrawSource: String {
    case published, mine, all

    init(request: Request) throws {
        let text = request.queryString("source") ?? "published"
        guard let source = DrawSource(rawValue: text) else {
            throw APIError.badRequest("The query parameter 'source' must be published, mine or all.")
        }
        self = source
    }
}

/// The set of cards a draw or shuffle chooses from, for the request's edition, source and profile.
struct DrawSet {
    let deck: PublishedDeck
    let profiles: StrategyProfileRepository

    func cards(for request: Request, profileID: String?) async throws -> [StrategyCard] {
        let source = try DrawSource(request: request)
        let edition = try request.queryInt("edition", in: 0...10_000)
        // The published cards as kept, not copied (appending them to an empty array copied a few hundred cards
        // on every draw, 3% of one).
        var cards = source == .mine ? [] : try await deck.current().cards(ofKnownEdition: edition)
        if source != .published, let profileID {
            cards += try await profiles.ownCards(profileID: profileID)
        }
        return cards
    }
}
