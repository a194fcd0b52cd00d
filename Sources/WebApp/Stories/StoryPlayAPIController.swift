import ChooseYourDestiny
import Foundation
import Hummingbird
import Storage
import Synchronization

/// `/api/v1/stories/{id}/play`: a Twine story that keeps variables, read one step at a time through the
/// interpreter. The reader's place (the interpreter's reading: seed, choices taken, state) is saved per profile
/// with the trail and endings, so library cards, the map and resuming work as for any story.
struct StoryPlayAPIController {
    let stories: StoryRepository
    let interpreters = TwineInterpreters()

    /// `api`: the group at `/api/v1/stories`.
    func addRoutes(to api: RouterGroup<TroveRequestContext>) {
        api.get("{id}/play", use: current)
            .post("{id}/play", use: move)
    }

    /// Written by hand (`JSONWritable`): JSONEncoder was 7% of a Twine step's samples.
    struct PlayJSON: JSONWritable, APIAnswer {
        struct ChoiceJSON: Encodable {
            let index: Int
            let text: String
            let back: Bool
        }

        let step: Int
        let passage: String
        let paragraphs: [String]
        let choices: [ChoiceJSON]
        let is_ending: Bool
        let stopped: Bool
        let trail: [String]
        let endings_found: [String]

        init(_ rendered: RenderedPassage, reading: TwineReading, progress: ReadingProgress) {
            step = reading.choices.count
            passage = rendered.passage
            paragraphs = rendered.paragraphs
            choices = rendered.choices.enumerated().map {
                ChoiceJSON(index: $0.offset, text: $0.element.text, back: $0.element.kind == .back)
            }
            is_ending = rendered.isEnding
            stopped = rendered.stopped
            trail = progress.path
            endings_found = progress.endingsFound
        }

        func write(to writer: inout JSONWriter) {
            writer.object { w in
                w.key("step")
                w.integer(step)
                w.key("passage")
                w.string(passage)
                w.key("paragraphs")
                w.array(paragraphs) { w, paragraph in w.string(paragraph) }
                w.key("choices")
                w.array(choices) { w, choice in
                    w.object { w in
                        w.key("index")
                        w.integer(choice.index)
                        w.key("text")
                        w.string(choice.text)
                        w.key("back")
                        w.bool(choice.back)
                    }
                }
                w.key("is_ending")
                w.bool(is_ending)
                w.key("stopped")
                w.bool(stopped)
                w.key("trail")
                w.array(trail) { w, name in w.string(name) }
                w.key("endings_found")
                w.array(endings_found) { w, name in w.string(name) }
            }
        }
    }

    /// Where the visitor is (the start when they never opened it).
    @Sendable func current(_ request: Request, context: TroveRequestContext) async throws -> PlayJSON {
        let (id, interpreter) = try await interactiveStory(context)
        let profile = try await context.session.requireProfile()
        if let place = try await stories.twinePlace(storyID: id, profileID: profile.id),
            let reading = TwineReading.stored(place.reading)
        {
            // A passage rendered lately is kept (`RenderedPassages`): handing it over needs no other thread.
            if let kept = interpreter.keptCurrent(reading) { return PlayJSON(kept, reading: reading, progress: place.progress) }
            let rendered = await offEventLoops { interpreter.current(reading, work: TwineBudget.opening()) }
            return PlayJSON(rendered, reading: reading, progress: place.progress)
        }
        let (reading, rendered) = await offEventLoops { interpreter.start(work: TwineBudget.opening()) }
        return PlayJSON(rendered, reading: reading, progress: ReadingProgress(path: [rendered.passage], endingsFound: []))
    }

    struct MoveBody: Decodable {
        /// Take this choice of the current passage.
        let choice: Int?
        /// With a choice: the step of the passage it was made on. A page left open while the story was read on
        /// elsewhere would otherwise take that choice of another passage.
        let at: Int?
        /// Or go back to this step (0: the start), with the story's variables as they were there.
        let step: Int?
    }

    @Sendable func move(_ request: Request, context: TroveRequestContext) async throws -> PlayJSON {
        let body = try await JSONBody.decode(MoveBody.self, from: request)
        guard (body.choice == nil) != (body.step == nil) else { throw StoryError.invalidPath("Send either 'choice' or 'step'.") }
        let (id, interpreter) = try await interactiveStory(context)
        let profile = try await context.session.requireProfile()
        var reading = interpreter.start(work: TwineBudget.step()).reading
        var progress = ReadingProgress(path: [reading.passage], endingsFound: [])
        if let place = try await stories.twinePlace(storyID: id, profileID: profile.id),
            let kept = TwineReading.stored(place.reading)
        {
            reading = kept
            progress = place.progress
        }
        if body.choice != nil, let at = body.at, at != reading.choices.count {
            throw APIError(
                .conflict, code: "place_moved",
                message: "This choice was made at step \(at), but your place in this story is at step \(reading.choices.count) now.")
        }
        // A step renders a passage or two (well under a millisecond); a rewind replays the path from the start.
        let moved: (reading: TwineReading, passage: RenderedPassage)
        var trail: [String]
        do {
            if let choice = body.choice {
                moved = try interpreter.choose(choice, in: reading, work: TwineBudget.step())
            } else {
                moved = try interpreter.rewind(reading, to: body.step ?? 0, work: TwineBudget.step())
            }
            // The trail follows the steps: one more passage forward, or cut back to the step returned to.
            let steps = moved.reading.choices.count
            trail = Array(progress.path.prefix(steps))
            if trail.count < steps {
                let replayed = try interpreter.replay(seed: moved.reading.seed, choices: moved.reading.choices, work: TwineBudget.step())
                trail = replayed.passages.dropLast().map { $0.passage }
            }
        } catch {
            throw APIError(.unprocessableContent, code: "invalid_choice", message: error.description)
        }
        trail.append(moved.passage.passage)
        var endings = progress.endingsFound
        if moved.passage.isEnding, !endings.contains(moved.passage.passage) { endings.append(moved.passage.passage) }
        let next = ReadingProgress(path: trail, endingsFound: endings)
        let json = String(decoding: try JSONEncoder().encode(moved.reading), as: UTF8.self)
        try await stories.saveTwineReading(json, progress: next, storyID: id, profileID: profile.id)
        return PlayJSON(moved.passage, reading: moved.reading, progress: next)
    }

    /// The story's id and its interpreter. A step reads only whether the story is interactive and its version: the
    /// story itself is not read, and its Twine file only when no interpreter of this version is kept.
    private func interactiveStory(_ context: TroveRequestContext) async throws -> (id: String, interpreter: TwineInterpreter) {
        let id = try context.parameters.require("id")
        guard let version = try await stories.twineVersion(storyID: id) else { throw StoryError.storyNotFound }
        let notInteractive = APIError(
            .conflict, code: "not_interactive",
            message: "This story has no variables to keep: read it from its chapters (GET /api/v1/stories/\(id)).")
        guard version.interactive else { throw notInteractive }
        let interpreter = try await interpreters.interpreter(storyID: id, version: version.updatedAt) { [stories] in
            guard let html = try await stories.twineHTML(storyID: id) else { throw notInteractive }
            return html
        }
        return (id, interpreter)
    }
}

/// Parsed Twine stories, one per story and version, so a step does not read the whole file again. A lock, not an
/// actor: every step asks, and a kept one is handed over without a hop. Two first steps of one version at once may
/// both parse it; the later one is kept.
final class TwineInterpreters: Sendable {
    private let kept = Mutex<[String: (version: Date, interpreter: TwineInterpreter)]>([:])

    func interpreter(storyID: String, version: Date, html load: @Sendable () async throws -> String) async throws -> TwineInterpreter {
        if let entry = kept.withLock({ $0[storyID] }), entry.version == version { return entry.interpreter }
        let html = try await load()
        // Reading the file and checking every passage's limits (a stored story must never stop the server) is
        // the longest part: off the event loops.
        let interpreter = try await offEventLoops { () throws -> TwineInterpreter in
            do { return TwineInterpreter(try TwineHTML.read(html)) } catch { throw StoryError.unreadable(String(describing: error)) }
        }
        kept.withLock { kept in
            if kept.count >= 100 { kept.removeAll() }
            kept[storyID] = (version, interpreter)
        }
        return interpreter
    }
}
