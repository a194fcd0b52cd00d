import Foundation
import Hummingbird
import ObliqueStrategies
import Storage

/// The profile's own side of the deck: favourites, own cards, shuffle memory and draw history.
struct StrategiesProfileAPIController {
    let deck: PublishedDeck
    let deckRepository: StrategyDeckRepository
    let profiles: StrategyProfileRepository

    struct TextBody: Decodable { let strategy: String }
    struct NoteBody: Decodable {
        let note: String?
        /// The note as the sending device last saw it (null: none). Sent, a note changed elsewhere meanwhile is kept
        /// beside this one; left out, this one replaces it.
        let was: String??

        enum CodingKeys: String, CodingKey { case note, was }

        init(from decoder: any Decoder) throws {
            let body = try decoder.container(keyedBy: CodingKeys.self)
            note = try body.decodeIfPresent(String.self, forKey: .note)
            was = body.contains(.was) ? .some(try body.decodeIfPresent(String.self, forKey: .was)) : nil
        }
    }
    struct Popular: Encodable, Sendable {
        let card: StrategyCard
        let favourites: Int
    }
    struct ShuffleState: APIAnswer {
        let total: Int
        let remaining: Int
    }
    struct ShuffleResult: APIAnswer {
        let card: StrategyCard
        let total: Int
        let remaining: Int
        let reshuffled: Bool
    }

    /// `api`: the group at `/api/v1/strategies`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get("favourites", use: favourites)
            .put("{id}/favourite", use: addFavourite)
            .get("popular", use: popular)
            .get("mine", use: mine)
            .post("mine", use: createMine)
            .get("shuffle", use: shuffleState)
            .post("shuffle/draw", use: shuffleDraw)
            .delete("shuffle", use: resetShuffle)
            .get("history", use: history)
            .post("history", use: recordOfflineDraw)
            .get("history.csv", use: historyCSV)
        api.withProfile("{id}/favourite", otherwise: StrategyError.cardNotFound)
            .delete(use: removeFavourite)
        api.withProfile("mine/{id}", otherwise: StrategyError.cardNotFound)
            .patch(use: updateMine)
            .delete(use: deleteMine)
        api.withProfile("history/{id}", otherwise: StrategyError.historyEntryNotFound)
            .patch(use: setNote)
    }

    @Sendable func favourites(_ request: Request, context: TroveRequestContext) async throws -> APIValue<[StrategyCard]> {
        guard let profile = context.session.profile else { return APIValue([StrategyCard]()) }
        return APIValue(try await profiles.favourites(profileID: profile.id))
    }

    @Sendable func addFavourite(_ request: Request, context: TroveRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.requireID("id")
        let profile = try await context.session.requireProfile()
        guard try await deckRepository.card(id: id, visibleTo: profile.id) != nil else { throw StrategyError.cardNotFound }
        try await profiles.setFavourite(profileID: profile.id, cardID: id)
        return .noContent
    }

    @Sendable func removeFavourite(_ request: Request, context: ProfileRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.requireID("id")
        let profile = context.profile
        guard try await deckRepository.card(id: id, visibleTo: profile.id) != nil
        else { throw StrategyError.cardNotFound }
        try await profiles.removeFavourite(profileID: profile.id, cardID: id)
        return .noContent
    }

    @Sendable func popular(_ request: Request, context: TroveRequestContext) async throws -> APIValue<[Popular]> {
        APIValue(try await profiles.popular().map { Popular(card: $0.card, favourites: $0.favourites) })
    }

    @Sendable func mine(_ request: Request, context: TroveRequestContext) async throws -> APIValue<[StrategyCard]> {
        guard let profile = context.session.profile else { return APIValue([StrategyCard]()) }
        return APIValue(try await profiles.ownCards(profileID: profile.id))
    }

    @Sendable func createMine(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<StrategyCard> {
        let text = try CardText.ownCard(try await JSONBody.decode(TextBody.self, from: request).strategy)
        let profile = try await context.session.requireProfile()
        return EditedResponse(status: .created, response: try await profiles.createOwnCard(profileID: profile.id, text: text))
    }

    @Sendable func updateMine(_ request: Request, context: ProfileRequestContext) async throws -> StrategyCard {
        let id = try context.parameters.requireID("id")
        let text = try CardText.ownCard(try await JSONBody.decode(TextBody.self, from: request).strategy)
        let profile = context.profile
        guard let card = try await profiles.updateOwnCard(profileID: profile.id, id: id, text: text)
        else { throw StrategyError.cardNotFound }
        return card
    }

    @Sendable func deleteMine(_ request: Request, context: ProfileRequestContext) async throws -> HTTPResponse.Status {
        let id = try context.parameters.requireID("id")
        let profile = context.profile
        guard try await profiles.deleteOwnCard(profileID: profile.id, id: id) else {
            throw StrategyError.cardNotFound
        }
        return .noContent
    }

    @Sendable func shuffleState(_ request: Request, context: TroveRequestContext) async throws -> ShuffleState {
        let profileID = context.session.profile?.id
        let cards = try await DrawSet(deck: deck, profiles: profiles).cards(for: request, profileID: profileID)
        var drawn: Set<Int> = []
        if let profileID { drawn = try await profiles.shuffleDrawn(profileID: profileID) }
        return ShuffleState(total: cards.count, remaining: cards.filter { !drawn.contains($0.id) }.count)
    }

    @Sendable func shuffleDraw(_ request: Request, context: TroveRequestContext) async throws -> ShuffleResult {
        let profile = try await context.session.requireProfile()
        let cards = try await DrawSet(deck: deck, profiles: profiles).cards(for: request, profileID: profile.id)
        let drawn = try await profiles.shuffleDrawn(profileID: profile.id)
        var generator = SystemRandomNumberGenerator()
        guard let result = CardPicker.shuffleDraw(from: cards, alreadyDrawn: drawn, using: &generator) else {
            throw StrategyError.emptyDeck
        }
        try await profiles.recordShuffleDraw(
            profileID: profile.id, cardID: result.card.id, newRound: result.reshuffled ? cards.map(\.id) : nil)
        try await profiles.recordDraw(profileID: profile.id, cardID: result.card.id)
        return ShuffleResult(card: result.card, total: cards.count, remaining: result.remaining, reshuffled: result.reshuffled)
    }

    @Sendable func resetShuffle(_ request: Request, context: TroveRequestContext) async throws -> HTTPResponse.Status {
        if let profile = context.session.profile { try await profiles.resetShuffle(profileID: profile.id) }
        return .noContent
    }

    @Sendable func history(_ request: Request, context: TroveRequestContext) async throws -> APIValue<[DrawJSON]> {
        guard let profile = context.session.profile else { return APIValue([DrawJSON]()) }
        return APIValue(try await profiles.history(profileID: profile.id).map(DrawJSON.init))
    }

    struct DrawBody: Decodable {
        let card_id: Int
        let drawn_at: Date
    }

    struct RecordedDraw: APIAnswer {
        let card_id: Int
        let drawn_at: Date
    }

    /// A draw made on the device without a connection (from the deck it keeps), recorded when the outbox
    /// sends it: at the time it was drawn, not when it arrived. A week late at most, never from the future.
    @Sendable func recordOfflineDraw(_ request: Request, context: TroveRequestContext) async throws -> EditedResponse<RecordedDraw> {
        let body = try await JSONBody.decode(DrawBody.self, from: request)
        let now = Date()
        guard body.drawn_at <= now.addingTimeInterval(300), body.drawn_at >= now.addingTimeInterval(-7 * 86_400) else {
            throw APIError.validation("'drawn_at' must be within the last seven days.")
        }
        let profile = try await context.session.requireProfile()
        guard try await deckRepository.card(id: body.card_id, visibleTo: profile.id) != nil else { throw StrategyError.cardNotFound }
        try await profiles.recordDraw(profileID: profile.id, cardID: body.card_id, at: body.drawn_at)
        return EditedResponse(status: .created, response: RecordedDraw(card_id: body.card_id, drawn_at: body.drawn_at))
    }

    @Sendable func historyCSV(_ request: Request, context: TroveRequestContext) async throws -> Response {
        var entries: [StrategyProfileRepository.HistoryEntry] = []
        if let profile = context.session.profile { entries = try await profiles.history(profileID: profile.id) }
        let formatter = ISO8601DateFormatter()
        var csv = "drawn_at,card_id,edition,cardnumber,strategy,note\r\n"
        for entry in entries {
            let card = entry.card
            let fields: [String] = [
                formatter.string(from: entry.drawnAt), String(card.id), String(card.edition),
                String(card.cardNumber), card.text, entry.note ?? "",
            ]
            csv += CSV.line(fields) + "\r\n"
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"oblique-strategies-history.csv\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: csv)))
    }

    @Sendable func setNote(_ request: Request, context: ProfileRequestContext) async throws -> DrawJSON {
        let id = try context.parameters.requireID("id")
        let body = try await JSONBody.decode(NoteBody.self, from: request)
        let note = try CardText.note(body.note, over: body.was ?? nil)
        let profile = context.profile
        guard
            let entry = try await profiles.setNote(profileID: profile.id, entryID: id, note: note, over: body.was.map(CardText.trimmedNote))
        else { throw StrategyError.historyEntryNotFound }
        return DrawJSON(entry)
    }
}
