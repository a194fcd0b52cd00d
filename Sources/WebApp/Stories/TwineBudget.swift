import ChooseYourDestiny

/// How much work a request may spend reading or playing a Twine story (`TwineWork`), so that a story built to run
/// forever costs one request a bounded time and is then refused or stopped.
enum TwineBudget {
    /// Reading an upload, off the event loops: at most five seconds.
    static func upload() -> TwineWork {
        let deadline = ContinuousClock.now + .seconds(5)
        return TwineWork(shouldStop: { ContinuousClock.now > deadline })
    }

    /// A step of play, run on an event loop (a passage or two, well under a millisecond in real stories): a tenth of
    /// the whole budget, about 0.3 s in a debug build.
    static func step() -> TwineWork {
        TwineWork(steps: TwineLimits.workSteps / 10)
    }

    /// Opening a reading, off the event loops (a rewind or a first passage): at most two seconds.
    static func opening() -> TwineWork {
        let deadline = ContinuousClock.now + .seconds(2)
        return TwineWork(shouldStop: { ContinuousClock.now > deadline })
    }
}
