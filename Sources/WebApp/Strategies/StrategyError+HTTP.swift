import Hummingbird
import ObliqueStrategies

/// StrategyError as HTTP answers (its status, code and message).
extension StrategyError: HTTPMappedError {
    var apiError: APIError {
        switch self {
        case .cardNotFound: .notFound("The card")
        case .historyEntryNotFound: .notFound("The draw")
        case .emptyDeck:
            APIError(.notFound, code: "empty_deck", message: "There are no cards to draw from: import the deck or choose other cards.")
        case .editionNotFound(let edition): APIError(.notFound, code: "edition_not_found", message: "The deck has no edition \(edition).")
        case .invalidText(let message), .invalidNote(let message): .validation(message)
        case .unknownTimeZone(let name): .badRequest("'\(name)' is not a time zone: use a name such as Europe/London.")
        }
    }
}
