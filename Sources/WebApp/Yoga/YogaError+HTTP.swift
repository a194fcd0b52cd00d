import Hummingbird
import YogiYogini

/// YogaError as HTTP answers (its status, code and message).
extension YogaError: HTTPMappedError {
    var apiError: APIError {
        switch self {
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
}
