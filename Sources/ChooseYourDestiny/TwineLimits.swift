/// What a Twine story may ask of the server, in one place: how deep its markup and expressions nest, how large
/// the values it builds may grow, and how much work reading or playing it may take. Stories in the wild nest a
/// few levels (rarely past 20); the limits are far above that and far below what would exhaust a thread's stack
/// (512 KB on a concurrency pool thread, in a debug build) or the server's memory.
public enum TwineLimits {
    /// Hooks, macro bodies and `(display:)`ed passages inside one another as a passage is played (some 3 KB of a
    /// debug build's stack each); and, read without playing, brackets of every kind and SugarCube's container
    /// macros, counted together.
    public static let nesting = 40
    /// Parentheses, lists, calls and prefix operators (`not`, `-`) inside one another in one expression. Reading
    /// one spends some 10 KB of a debug build's stack on each level (a pass through each level of precedence).
    public static let expressionNesting = 24
    /// How deep an expression's tree is, an operator chain (`1+1+…`) counting a level a term, and how deep lists
    /// in lists may be. Evaluating spends some 5 KB of a debug build's stack on each level.
    public static let expressionDepth = 40
    /// Characters in one string a story builds while it is played.
    public static let stringLength = 1_000_000
    /// Items in one list a story builds while it is played.
    public static let collectionSize = 100_000
    /// Steps of work (markup characters walked, tokens read, expressions evaluated) for one request: reading a
    /// story at upload, or one step of play.
    public static let workSteps = 20_000_000

    static let nestingMessage = "nests more than \(nesting) levels deep"
}

/// A budget of work for one request, charged by the readers and the interpreter as they go. The work stops with
/// `TwineWork.Exhausted` when its steps run out or when `shouldStop` answers true (asked every few thousand
/// steps), so a caller can bound the time a request takes and cancel it. Use one from one thread at a time.
public final class TwineWork {
    public struct Exhausted: Error, Equatable, Sendable, CustomStringConvertible {
        /// The caller stopped the work (`shouldStop`), rather than the steps running out.
        public let cancelled: Bool

        public var description: String {
            cancelled ? "the work was stopped before it finished" : "this takes more work than one request may do"
        }
    }

    private var remaining: Int
    private var untilPoll = TwineWork.pollInterval
    private let shouldStop: () -> Bool
    /// Set once the work ran out: what ran is cut short, and is not kept for other readers.
    public private(set) var exhausted: Exhausted?

    static let pollInterval = 4096

    public init(steps: Int = TwineLimits.workSteps, shouldStop: @escaping () -> Bool = { false }) {
        remaining = steps
        self.shouldStop = shouldStop
    }

    /// Counts `steps` of work; throws once the budget is spent or the caller asks to stop.
    public func charge(_ steps: Int = 1) throws(Exhausted) {
        if let exhausted { throw exhausted }
        remaining -= steps
        untilPoll -= steps
        if remaining < 0 {
            exhausted = Exhausted(cancelled: false)
        } else if untilPoll <= 0 {
            untilPoll = Self.pollInterval
            if shouldStop() { exhausted = Exhausted(cancelled: true) }
        }
        if let exhausted { throw exhausted }
    }

    /// `charge` for scans that cannot throw: false once the work is spent (the scan gives up; the walk around it
    /// then stops at its next `charge`).
    func consume(_ steps: Int = 1) -> Bool {
        if exhausted == nil, remaining >= steps, untilPoll > steps {
            remaining -= steps
            untilPoll -= steps
            return true
        }
        do {
            try charge(steps)
            return true
        } catch {
            return false
        }
    }
}
