import CityRoulette
import Hummingbird

/// CityError as HTTP answers (its status, code and message).
extension CityError: HTTPMappedError {
    var apiError: APIError {
        switch self {
        case .invalidCoordinates(let message), .invalidRadius(let message), .invalidLimit(let message), .invalidQuery(let message):
            .badRequest(message)
        case .cityNotFound: .notFound("The city")
        case .countryNotFound: .notFound("The country")
        case .notInCollection: APIError(.notFound, code: "not_in_collection", message: "That city is not in your collection.")
        case .unknownCities(let ids):
            APIError(
                .unprocessableContent, code: "unknown_city", message: "No city has the id \(ids.map(String.init).joined(separator: ", ")).")
        case .invalidCollection(let message): .validation(message)
        }
    }
}

/// Wikipedia did not answer: the page offers a search instead.
extension ArticlesUnavailable: HTTPMappedError {
    var apiError: APIError {
        APIError(.serviceUnavailable, code: "wikipedia_unavailable", message: "Wikipedia is not answering right now: try again later.")
    }
}
