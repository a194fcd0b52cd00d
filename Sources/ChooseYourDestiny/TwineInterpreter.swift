import Foundation

/// What the reader carries from passage to passage: the story variables, the passages seen (oldest first, the
/// current one last; Harlowe's `(history:)`, SugarCube's `visited()`), and the seed of `random`/`either`, so
/// that replaying the same choices gives the same story.
public struct ReaderState: Codable, Sendable, Hashable {
    public var variables: [String: TwineValue]
    public var history: [String]
    public var seed: UInt64

    public init(variables: [String: TwineValue] = [:], history: [String] = [], seed: UInt64 = 0) {
        self.variables = variables
        self.history = history
        self.seed = seed
    }
}

public struct TwineChoice: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        /// On to `target`.
        case go
        /// SugarCube `<<back>>`, Harlowe `(link-undo:)`: undo the last step (`target` names the passage it returns to).
        case back
    }

    public var text: String
    public var target: String
    public var kind: Kind
    /// Markup run when the choice is taken, before going on: a setter link's `<<set>>`, a `(link:)` hook, a
    /// `<<link>>` body. A `(goto:)`/`<<goto>>` in it decides where the choice leads.
    public var effect: String?

    public init(text: String, target: String, kind: Kind = .go, effect: String? = nil) {
        self.text = text
        self.target = target
        self.kind = kind
        self.effect = effect
    }
}

/// One passage as the reader sees it, after its macros ran.
public struct RenderedPassage: Sendable, Equatable {
    /// The passage shown: the one entered, or where its `(goto:)`s led.
    public var passage: String
    /// Plain text with Trove's Markdown subset (`*emphasis*`, `**strong**`), one entry a paragraph.
    public var paragraphs: [String]
    public var choices: [TwineChoice]
    /// After the passage's own `(set:)`s, with the passage (and any passage a `(goto:)` went through) in the history.
    public var state: ReaderState
    /// Unsupported macros and errors, each naming its passage.
    public var warnings: [String]
    /// The passage was cut short: a `(goto:)` loop or too deep an `(display:)`.
    public var stopped: Bool

    public var isEnding: Bool { choices.isEmpty }
    public var text: String { paragraphs.joined(separator: "\n\n") }
}

/// Where a reader is in a Twine story, small enough to save with reading progress: the choices taken from the
/// start (indexes into each passage's `choices`), the passage entered last and the state on entering it.
/// Rewinding replays the choices from the start (the interpreter is deterministic, `random` included), so the
/// variables are exactly as they were at that step.
public struct TwineReading: Codable, Sendable, Equatable {
    public var seed: UInt64
    public var choices: [Int]
    public var passage: String
    public var entry: ReaderState

    public init(seed: UInt64, choices: [Int], passage: String, entry: ReaderState) {
        self.seed = seed
        self.choices = choices
        self.passage = passage
        self.entry = entry
    }
}

public enum TwinePlayError: Error, Equatable, Sendable, CustomStringConvertible {
    case noSuchChoice(step: Int, passage: String, index: Int)
    case noSuchStep(Int)

    public var description: String {
        switch self {
        case .noSuchChoice(let step, let passage, let index): "Step \(step + 1): passage \"\(passage)\" has no choice \(index + 1)."
        case .noSuchStep(let step): "There is no step \(step) on this path."
        }
    }
}

/// Plays a Twine story (Harlowe 3 or SugarCube 2) passage by passage. Pure: nothing outside the story and the
/// state is read, and no JavaScript runs.
public struct TwineInterpreter: Sendable {
    public let story: TwineStory
    /// `(goto:)`s followed in one step before the reader is told the story loops.
    public static let gotoLimit = 100
    /// `(display:)`/`<<include>>` nesting (below `TwineLimits.nesting`, which counts hooks and included passages).
    public static let includeDepthLimit = 30

    let extras: TwineExtras
    let renderedPassages = RenderedPassages()
    /// Passages over `TwineLimits` (a story stored before the limits, or not read through `StoryIntake`): each
    /// stops the story where it is reached, with why, rather than run.
    let problems: [String: String]

    public init(_ story: TwineStory) {
        self.story = story
        extras = TwineExtras(story)
        problems = story.limitProblems()
    }

    func run(_ passage: String, _ state: ReaderState, _ work: TwineWork) -> TwineRun {
        var run = TwineRun(story: story, passage: passage, state: state, work: work)
        run.problems = problems
        return run
    }

    /// The state before the first passage: SugarCube's `StoryInit` and Harlowe's `startup` passages have run.
    public func initialState(seed: UInt64 = 0, work: TwineWork = TwineWork()) -> ReaderState {
        var run = run(story.start, ReaderState(seed: seed), work)
        for passage in story.passages where TwineSpecial.isStartup(passage, format: story.format) && problems[passage.name] == nil {
            run.passage = passage.name
            _ = run.renderSilently(passage.text)
        }
        return run.state
    }

    /// Enters `passage` with `state` (its history not yet holding `passage`), runs its macros, follows its
    /// `(goto:)`s. A passage cut short because `work` ran out is not kept for other readers.
    public func render(passage: String, state: ReaderState, work: TwineWork = TwineWork()) -> RenderedPassage {
        renderedPassages.passage(
            passage, state, keep: { work.exhausted == nil }, render: { renderAnew(passage: passage, state: state, work: work) })
    }

    private func renderAnew(passage: String, state: ReaderState, work: TwineWork) -> RenderedPassage {
        var name = story.resolve(passage) ?? passage
        var state = state
        var warnings: [String] = []
        var gotos = 0
        var budget = TwineRun.budget
        while true {
            state.history.append(name)
            var run = run(name, state, work)
            run.extras = extras
            run.budget = budget
            let outcome = run.renderPassage()
            budget = run.budget
            warnings += run.warnings
            state = run.state
            switch outcome {
            case .done(let text):
                return RenderedPassage(
                    passage: name, paragraphs: TwineText.paragraphs(text), choices: run.choices, state: state, warnings: warnings,
                    stopped: false)
            case .goto(let target):
                gotos += 1
                let resolved = story.resolve(target)
                guard let resolved, gotos <= Self.gotoLimit else {
                    let message =
                        resolved == nil
                        ? "The story stopped here: passage \"\(name)\" goes to \"\(target)\", which does not exist."
                        : "The story stopped here: it went from passage to passage through (goto:) \(Self.gotoLimit) times without a choice (from \"\(passage)\", now at \"\(name)\"), so it would never stop."
                    warnings.append(message)
                    return RenderedPassage(
                        passage: name, paragraphs: TwineText.paragraphs(run.output) + [message], choices: [], state: state,
                        warnings: warnings, stopped: true)
                }
                name = resolved
            case .stopped(let message):
                warnings.append(message)
                return RenderedPassage(
                    passage: name, paragraphs: TwineText.paragraphs(run.output) + [message], choices: [], state: state, warnings: warnings,
                    stopped: true)
            }
        }
    }

    /// The state on entering the passage `choice` leads to (the choice's effect has run), and that passage's
    /// name. A `.back` choice is not followed here: it is `rewind`.
    public func follow(_ choice: TwineChoice, from current: RenderedPassage, work: TwineWork = TwineWork()) -> (
        passage: String, entry: ReaderState
    ) {
        guard let effect = choice.effect else { return (choice.target, current.state) }
        var run = run(current.passage, current.state, work)
        switch run.renderSilently(effect) {
        case .goto(let target): return (target, run.state)
        case .done, .stopped: return (choice.target, run.state)
        }
    }

    // MARK: Reading step by step

    public func start(seed: UInt64 = 0, work: TwineWork = TwineWork()) -> (reading: TwineReading, passage: RenderedPassage) {
        let entry = initialState(seed: seed, work: work)
        let reading = TwineReading(seed: seed, choices: [], passage: story.start, entry: entry)
        return (reading, render(passage: story.start, state: entry, work: work))
    }

    /// The passage the reader is at (one render).
    public func current(_ reading: TwineReading, work: TwineWork = TwineWork()) -> RenderedPassage {
        render(passage: reading.passage, state: reading.entry, work: work)
    }

    /// The passage the reader is at when it was rendered lately with the same state, else nil (no rendering).
    public func keptCurrent(_ reading: TwineReading) -> RenderedPassage? {
        renderedPassages.kept(reading.passage, reading.entry)
    }

    /// Takes choice `index` of the current passage. A back choice rewinds one step.
    public func choose(_ index: Int, in reading: TwineReading, work: TwineWork = TwineWork()) throws(TwinePlayError) -> (
        reading: TwineReading, passage: RenderedPassage
    ) {
        try choose(index, in: reading, at: current(reading, work: work), work: work)
    }

    /// `choose` when the current passage is already rendered.
    func choose(_ index: Int, in reading: TwineReading, at here: RenderedPassage, work: TwineWork) throws(TwinePlayError) -> (
        reading: TwineReading, passage: RenderedPassage
    ) {
        guard here.choices.indices.contains(index) else {
            throw .noSuchChoice(step: reading.choices.count, passage: here.passage, index: index)
        }
        let choice = here.choices[index]
        if choice.kind == .back {
            return try rewind(reading, to: max(0, reading.choices.count - 1), work: work)
        }
        let (target, entry) = follow(choice, from: here, work: work)
        let next = TwineReading(seed: reading.seed, choices: reading.choices + [index], passage: target, entry: entry)
        return (next, render(passage: target, state: entry, work: work))
    }

    /// Back to step `step` (0 is the start), with the variables as they were there.
    public func rewind(_ reading: TwineReading, to step: Int, work: TwineWork = TwineWork()) throws(TwinePlayError) -> (
        reading: TwineReading, passage: RenderedPassage
    ) {
        guard (0...reading.choices.count).contains(step) else { throw .noSuchStep(step) }
        let (replayed, passages) = try replay(seed: reading.seed, choices: Array(reading.choices.prefix(step)), work: work)
        return (replayed, passages[passages.count - 1])
    }

    /// Every passage along `choices` from the start (the first is the start), and where that leaves the reader.
    public func replay(seed: UInt64 = 0, choices: [Int], work: TwineWork = TwineWork()) throws(TwinePlayError) -> (
        reading: TwineReading, passages: [RenderedPassage]
    ) {
        var (reading, passage) = start(seed: seed, work: work)
        var passages = [passage]
        for index in choices {
            (reading, passage) = try choose(index, in: reading, at: passage, work: work)
            if reading.choices.count < passages.count - 1 {
                passages.removeLast()
            } else {
                passages.append(passage)
            }
        }
        return (reading, passages)
    }
}

/// Passages rendered lately, by passage and state. Rendering is pure, and a reader's passage is rendered again with
/// the same state whenever it is reopened and when their next choice is taken (which renders the passage they are
/// at, then the one it leads to). Bounded: when it holds `capacity` passages it starts again.
final class RenderedPassages: @unchecked Sendable {
    private struct Key: Hashable {
        let passage: String
        let state: ReaderState
    }

    static let capacity = 256
    private let lock = NSLock()
    private var kept: [Key: RenderedPassage] = [:]

    func kept(_ passage: String, _ state: ReaderState) -> RenderedPassage? {
        let key = Key(passage: passage, state: state)
        return lock.withLock { kept[key] }
    }

    func passage(_ passage: String, _ state: ReaderState, keep: () -> Bool = { true }, render: () -> RenderedPassage) -> RenderedPassage {
        if let found = kept(passage, state) { return found }
        let rendered = render()
        guard keep() else { return rendered }
        lock.withLock {
            if kept.count >= Self.capacity { kept.removeAll(keepingCapacity: true) }
            kept[Key(passage: passage, state: state)] = rendered
        }
        return rendered
    }

    var count: Int { lock.withLock { kept.count } }
}
