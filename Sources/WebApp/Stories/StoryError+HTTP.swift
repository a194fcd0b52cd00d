import ChooseYourDestiny
import Hummingbird

/// StoryError as HTTP answers (its status, code and message).
extension StoryError: HTTPMappedError {
    var apiError: APIError {
        switch self {
        case .invalid(let problems):
            APIError(
                .unprocessableContent, code: "invalid_story",
                message: problems.count == 1 ? problems[0] : "The story has \(problems.count) problems.", details: problems)
        case .unreadable(let message): APIError(.unprocessableContent, code: "invalid_story", message: message, details: [message])
        case .storyNotFound: .notFound("The story")
        case .resourceNotFound: .notFound("The picture")
        case .storyExists:
            APIError(
                .conflict, code: "story_exists",
                message:
                    "Another author's story has this id. In a story.json, give yours another \"id\"; a Twine story's id is its IFID: duplicate the story in Twine (which gives the copy a new IFID) and publish the copy."
            )
        case .invalidPath(let message): APIError(.unprocessableContent, code: "invalid_path", message: message)
        case .signInRequired: APIError(.forbidden, code: "sign_in_required", message: "Sign in to publish stories.")
        }
    }
}
