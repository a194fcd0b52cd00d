import Accounts
import ChooseYourDestiny
import CityRoulette
import DatabaseDrivers
import Foundation
import Hummingbird
import MagneticPoetry
import ObliqueStrategies
import Weather
import YogiYogini

/// Translates any error into an `APIError`; domain errors know nothing of HTTP, so their statuses live here.
enum ErrorMapping {
    static func apiError(for error: any Error) -> APIError? {
        switch error {
        case let error as APIError:
            return error
        case let error as AccountError:
            return accountError(error)
        case let error as StrategyError:
            return strategyError(error)
        case let error as PoetryError:
            return poetryError(error)
        case let error as CityError:
            return cityError(error)
        case let error as WeatherUnavailable:
            guard let wait = error.retryAfter.map({ Int($0.rounded(.up)) }) else {
                return APIError(
                    .serviceUnavailable, code: "weather_unavailable",
                    message: "The weather service is not answering right now: try again later.")
            }
            return APIError(
                .serviceUnavailable, code: "weather_unavailable",
                message: "The weather service failed several times in the last minute: Trove asks again in \(wait) s.",
                headers: [.retryAfter: String(wait)])
        case let error as StoryError:
            return storyError(error)
        case let error as YogaError:
            return yogaError(error)
        case is VenuesUnavailable:
            return APIError(
                .serviceUnavailable, code: "venues_unavailable",
                message: "The venue search is not answering right now: pick a saved venue or type one.")
        case let error as JSONBodyError:
            return error.apiError
        case let error as HTTPError:
            return APIError(error.status, code: code(for: error.status), message: error.body ?? defaultMessage(for: error.status))
        case let error as any HTTPResponseError:
            return APIError(error.status, code: code(for: error.status), message: defaultMessage(for: error.status))
        default:
            return DatabaseOutage(error).map(databaseError)
        }
    }

    /// 503 with Retry-After: nothing was written, and the same request may succeed once the database is back.
    static func databaseError(_ outage: DatabaseOutage) -> APIError {
        let (code, message, retry): (String, String, Int) =
            switch outage {
            case .unreachable: ("database_unavailable", "The database is not answering right now: try again in a moment.", 5)
            case .busy: ("database_busy", "The database is busy: try again in a moment.", 1)
            case .full: ("database_full", "The server's disk is full, so nothing can be saved right now.", 60)
            case .readOnly: ("database_read_only", "The server's database cannot be written right now.", 60)
            case .diskError: ("database_disk_error", "The server's disk failed to read or write: try again later.", 60)
            }
        var headers = HTTPFields()
        headers[.retryAfter] = String(retry)
        return APIError(.serviceUnavailable, code: code, message: message, headers: headers)
    }

    static func accountError(_ error: AccountError) -> APIError {
        switch error {
        case .invalidUsername(let message), .invalidPassword(let message):
            return .validation(message)
        case .usernameTaken:
            return APIError(.conflict, code: "username_taken", message: "That username is taken: choose another.")
        case .alreadySignedIn:
            return APIError(.conflict, code: "already_signed_in", message: "You are already signed in: sign out first.")
        case .wrongCredentials:
            return APIError(.unauthorized, code: "wrong_credentials", message: "Wrong username or password.")
        case .tooManyAttempts(let seconds):
            var headers = HTTPFields()
            headers[.retryAfter] = String(seconds)
            return APIError(
                .tooManyRequests, code: "too_many_attempts",
                message: "Too many failed sign-ins: try again in \(seconds) seconds.", headers: headers
            )
        case .profileNotFound:
            return .notFound("The profile")
        }
    }

    static func strategyError(_ error: StrategyError) -> APIError {
        switch error {
        case .cardNotFound: .notFound("The card")
        case .historyEntryNotFound: .notFound("The draw")
        case .emptyDeck:
            APIError(.notFound, code: "empty_deck", message: "There are no cards to draw from: import the deck or choose other cards.")
        case .editionNotFound(let edition): APIError(.notFound, code: "edition_not_found", message: "The deck has no edition \(edition).")
        case .invalidText(let message), .invalidNote(let message): .validation(message)
        case .unknownTimeZone(let name): .badRequest("'\(name)' is not a time zone: use a name such as Europe/London.")
        }
    }

    static func poetryError(_ error: PoetryError) -> APIError {
        switch error {
        case .invalid(let message): .validation(message)
        case .wordSetNotFound: .notFound("The word set")
        case .poemNotFound: .notFound("The poem")
        case .backgroundNotFound: .notFound("The background picture")
        case .versionConflict(let current):
            APIError(.conflict, code: "version_conflict", message: "This poem was saved elsewhere meanwhile (now version \(current)).")
        case .notAnImage:
            APIError(.unprocessableContent, code: "not_an_image", message: "That file is not a JPEG, PNG, WebP or GIF picture.")
        case .pronunciationsNotImported:
            APIError(
                .notFound, code: "not_imported", message: "The pronunciation dictionary is not imported: run `trove import pronunciations`."
            )
        }
    }

    static func cityError(_ error: CityError) -> APIError {
        switch error {
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

    static func storyError(_ error: StoryError) -> APIError {
        switch error {
        case .invalid(let problems):
            APIError(
                .unprocessableContent, code: "invalid_story",
                message: problems.count == 1 ? problems[0] : "The story has \(problems.count) problems.", details: problems)
        case .unreadable(let message): APIError(.unprocessableContent, code: "invalid_story", message: message, details: [message])
        case .storyNotFound: .notFound("The story")
        case .resourceNotFound: .notFound("The picture")
        case .storyExists:
            APIError(.conflict, code: "story_exists", message: "Another author's story has this id: give yours another \"id\".")
        case .invalidPath(let message): APIError(.unprocessableContent, code: "invalid_path", message: message)
        case .signInRequired: APIError(.forbidden, code: "sign_in_required", message: "Sign in to publish stories.")
        }
    }

    static func yogaError(_ error: YogaError) -> APIError {
        switch error {
        case .invalid(let message): .validation(message)
        case .studentNotFound: .notFound("The student")
        case .studentTypeNotFound: .notFound("The student type")
        case .studentTypeExists(let name):
            APIError(.conflict, code: "student_type_exists", message: "There is already a type called \(name).")
        case .venueNotFound: .notFound("The venue")
        case .sessionNotFound: .notFound("The session")
        case .noClass: APIError(.notFound, code: "no_class", message: "No class is in session: check in first.")
        case .classInSession: APIError(.conflict, code: "class_in_session", message: "A class is already in session: end it first.")
        case .notOnRoster(let ids):
            APIError(
                .unprocessableContent, code: "not_on_roster",
                message: "Only students on your roster can attend (unknown: \(ids.prefix(5).joined(separator: ", "))).")
        case .studentHasSessions(let count):
            APIError(
                .conflict, code: "student_has_sessions",
                message:
                    "This student attended \(count) session\(count == 1 ? "" : "s"): confirm to delete them (their past attendance stays, by name)."
            )
        case .venueWithoutCoordinates:
            APIError(
                .unprocessableContent, code: "venue_without_coordinates", message: "This venue has no position, so its weather is unknown.")
        }
    }

    static func code(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "bad_request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 409: "conflict"
        case 413: "body_too_large"
        case 415: "unsupported_media_type"
        case 422: "validation_failed"
        case 429: "too_many_requests"
        case 503: "unavailable"
        default: status.code < 500 ? "client_error" : "server_error"
        }
    }

    static func defaultMessage(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 404: "Nothing here: check the address."
        case 405: "This address does not take that method."
        case 413: "The request body is too large."
        default: status.reasonPhrase.isEmpty ? "Request failed." : status.reasonPhrase + "."
        }
    }
}
