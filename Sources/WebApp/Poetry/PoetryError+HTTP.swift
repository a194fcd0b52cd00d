import Hummingbird
import MagneticPoetry

/// PoetryError as HTTP answers (its status, code and message).
extension PoetryError: HTTPMappedError {
    var apiError: APIError {
        switch self {
        case .invalid(let message): .validation(message)
        case .wordSetNotFound: .notFound("The word set")
        case .wordSetNameTaken(let name):
            APIError(
                .conflict, code: "wordset_name_taken", message: "You already have a word set called '\(name)': give this one another name.")
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
}
