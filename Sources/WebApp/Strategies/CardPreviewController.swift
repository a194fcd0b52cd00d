import CardImage
import Hummingbird
import ObliqueStrategies
import Storage

/// `/strategies/{id}/preview.png`: the card as an image (1200 × 630) for link previews in chats and social
/// sites, named by the permalink page's `og:image`. Own cards show only to their owner, like the page.
struct CardPreviewController {
    let api: StrategiesAPIController
    let deckRepository: StrategyDeckRepository
    let renderer: CardRenderer
    let cache: CardPreviewCache

    /// `pages`: the group at `/strategies`.
    func addRoutes(to pages: RouterGroup<TroveRequestContext>) {
        pages.get("{id}/preview.png", use: preview)
    }

    @Sendable func preview(_ request: Request, context: TroveRequestContext) async throws -> Response {
        let card = try await api.card(request, context: context)
        let key = CardPreviewCache.Key(cardID: card.id, edition: card.edition, text: card.text)
        let preview = try await cache.preview(key) { [renderer, deckRepository] in
            let label =
                card.isOwn
                ? "My card"
                : try await deckRepository.sections().first { $0.edition == card.edition }?.label
                    ?? EditionLabel.label(edition: card.edition, name: "Edition \(card.edition)")
            return await offEventLoops { renderer.png(text: card.text, caption: "Oblique Strategies · \(label)") }
        }
        var headers = HTTPFields()
        headers[.contentType] = "image/png"
        // Anyone may cache a published card's image; an own card can be edited and is for its owner only.
        headers[.cacheControl] = card.isOwn ? "private, no-cache" : "public, max-age=86400"
        headers[.eTag] = preview.etag
        if request.hasCurrentCopy(etag: preview.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(preview.png.readableBytes)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: preview.png))
    }
}
