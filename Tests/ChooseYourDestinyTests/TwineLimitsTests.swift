import Foundation
import Testing

@testable import ChooseYourDestiny

/// What `body` returned and how long it took, run on a thread with the stack of a concurrency pool thread (512 KB):
/// an input that recursed as deep as it nests would overflow it.
func onSmallStack<T>(_ body: @escaping () -> T) -> (result: T, seconds: Double) {
    let box = SmallStackResult<T>()
    box.body = body
    let thread = Thread {
        let started = Date()
        box.result = box.body?()
        box.seconds = Date().timeIntervalSince(started)
        box.done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    box.done.wait()
    return (box.result!, box.seconds)
}

final class SmallStackResult<T>: @unchecked Sendable {
    var body: (() -> T)?
    var result: T?
    var seconds = 0.0
    let done = DispatchSemaphore(value: 0)
}

/// The message a story is refused with, or nil when it is accepted.
func refusal(_ source: String, format: StoryIntake.Format = .twineTwee) -> (message: String?, seconds: Double) {
    let (message, seconds) = onSmallStack { () -> String? in
        do throws(StoryError) {
            _ = try StoryIntake.accept(source, format: format)
            return nil
        } catch {
            switch error {
            case .unreadable(let message): return message
            case .invalid(let messages): return messages.joined(separator: " ")
            default: return "\(error)"
            }
        }
    }
    return (message, seconds)
}

func twee(_ format: String, _ passages: [(String, String)]) -> String {
    ":: StoryTitle\nHostile\n\n:: StoryData\n{\"format\": \"\(format)\", \"start\": \"Start\"}\n\n"
        + passages.map { ":: \($0.0)\n\($0.1)\n" }.joined(separator: "\n")
}

@Suite struct TwineLimitsTests {
    static let nested = String(repeating: "(", count: 2_000) + "1" + String(repeating: ")", count: 2_000)

    static func repeated(_ open: String, _ count: Int, _ middle: String, _ close: String = "") -> String {
        String(repeating: open, count: count) + middle + String(repeating: close, count: count)
    }

    /// Hostile passages, by name (the test's arguments are the names: printing the passages would take megabytes).
    static let deepPassages: KeyValuePairs<String, (format: String, passage: String)> = [
        "Harlowe: 1,000,000 nested parentheses": ("Harlowe", "(set: $x to \(repeated("(", 1_000_000, "1", ")")))"),
        "Harlowe: 2,000 nested parentheses": ("Harlowe", "(set: $x to \(repeated("(", 2_000, "1", ")")))"),
        "Harlowe: 100,000 terms": ("Harlowe", "(set: $x to 1\(String(repeating: "+1", count: 100_000)))"),
        "Harlowe: 10,000 terms": ("Harlowe", "(set: $x to 1\(String(repeating: "+1", count: 10_000)))"),
        "Harlowe: 2,000 nots": ("Harlowe", "(set: $x to \(String(repeating: "not ", count: 2_000))true)"),
        "Harlowe: 5,000 minus signs": ("Harlowe", "(print: \(String(repeating: "- ", count: 5_000))1)"),
        "SugarCube: 5,000 members": ("SugarCube", "<<print $a\(String(repeating: ".b", count: 5_000))>>"),
        "Harlowe: 20,000 nested hooks": ("Harlowe", repeated("(if: true)[", 20_000, "deep", "]")),
        "Harlowe: 5,000 nested brackets": ("Harlowe", repeated("[", 5_000, "deep", "]")),
        "Harlowe: 5,000 nested braces": ("Harlowe", repeated("{", 5_000, "deep", "}")),
        "SugarCube: 5,000 nested parentheses": ("SugarCube", "<<set $x to \(repeated("(", 5_000, "1", ")"))>>"),
        "SugarCube: 5,000 nested lists": ("SugarCube", "<<set $x to \(repeated("[", 5_000, "1", "]"))>>"),
        "SugarCube: 100,000 terms": ("SugarCube", "<<set $x to 1\(String(repeating: "+1", count: 100_000))>>"),
        "SugarCube: 5,000 !": ("SugarCube", "<<if \(String(repeating: "!", count: 5_000))true>>x<</if>>"),
        "SugarCube: 20,000 nested ifs": ("SugarCube", repeated("<<if true>>", 20_000, "deep", "<</if>>")),
    ]

    static func deepPassage(_ name: String) -> (format: String, passage: String) {
        deepPassages.first { $0.key == name }!.value
    }

    /// Each was a stack overflow (the server's end) in a debug build, and most in a release build.
    @Test(arguments: deepPassages.map(\.key))
    func aPassageNestedTooDeeplyIsRefusedQuickly(_ name: String) {
        let (format, passage) = Self.deepPassage(name)
        // In the second passage: every passage is checked, not only the first one played.
        let (message, seconds) = refusal(twee(format, [("Start", "Begin. [[On->Deep]]"), ("Deep", passage)]))
        #expect(message?.contains("Passage \"Deep\"") == true, "\(message ?? "accepted")")
        #expect(message?.contains("levels deep") == true)
        #expect(seconds < 1, "took \(seconds) s")
    }

    /// Everything nested as deep as the limits allow, at once, plays on a small stack (the check made when a story
    /// is read, stricter, is left out).
    @Test func theDeepestStoryAllowedPlaysOnASmallStack() {
        let hooks = TwineLimits.nesting - 1
        let chain = "1" + String(repeating: "+1", count: TwineLimits.expressionDepth - 2)
        let group = Self.repeated("(", TwineLimits.expressionNesting - 2, "1", ")")
        let harlowe = Self.repeated("(if: true)[", hooks, "(set: $x to \(chain))(set: $y to \(group))(print: $x + $y)", "]")
        let sugarCube = Self.repeated("<<if true>>", hooks, "<<set $x to \(chain)>><<set $y to \(group)>><<print $x + $y>>", "<</if>>")
        for (format, text) in [(TwineStory.Format.harlowe, harlowe), (.sugarcube, sugarCube)] {
            let story = TwineStory(name: "Deep", format: format, start: "Deep", passages: [.init(name: "Deep", text: text)])
            let (outcome, _) = onSmallStack {
                var run = TwineRun(story: story, passage: "Deep", state: ReaderState())
                return run.renderPassage()
            }
            #expect(outcome == .done("\(TwineLimits.expressionDepth)"))
        }
    }

    @Test func theLimitsLeaveRealNestingAlone() throws {
        let source = twee(
            "Harlowe",
            [
                ("Start", "(set: $x to ((1 + 2) * (3 - (4 / 2))))(if: not (not true))[(if: $x is 3)[Three. [[On->End]]]]"),
                ("End", "The end."),
            ])
        let accepted = try StoryIntake.accept(source, format: .twineTwee)
        let played = TwineInterpreter(try #require(accepted.twine)).start().passage
        #expect(played.text == "Three.")
        #expect(played.warnings.isEmpty)
    }

    /// A story stored before the limits (or not read through `StoryIntake`) stops where the passage is reached.
    @Test func aStoredPassageTooDeepStopsTheStoryWhenPlayed() throws {
        let deep = String(repeating: "(", count: 3_000) + "1" + String(repeating: ")", count: 3_000)
        let interpreter = twine(.sugarcube, [("Start", "Begin. [[On->Deep]]"), ("Deep", "<<set $x to \(deep)>>Deep.")])
        let (played, seconds) = onSmallStack { () -> RenderedPassage? in
            let (reading, _) = interpreter.start()
            return try? interpreter.choose(0, in: reading).passage
        }
        let passage = try #require(played)
        #expect(passage.stopped)
        #expect(passage.text.contains("Passage \"Deep\""), "\(passage.text)")
        #expect(seconds < 1)
    }

    /// Without the check made when the interpreter is made, the walkers and the parser stop on their own.
    @Test(arguments: ["Harlowe: 20,000 nested hooks", "Harlowe: 2,000 nested parentheses", "Harlowe: 10,000 terms"])
    func theWalkersRefuseDepthThemselves(_ name: String) {
        let passage = Self.deepPassage(name).passage
        let story = TwineStory(name: "Deep", format: .harlowe, start: "Deep", passages: [.init(name: "Deep", text: passage)])
        let (rendered, seconds) = onSmallStack {
            var run = TwineRun(story: story, passage: "Deep", state: ReaderState())
            return (run.renderPassage(), run.warnings)
        }
        let (outcome, warnings) = rendered
        // Without the check, a passage nesting hooks 20,000 deep runs out of work (matching each hook scans the rest).
        let stopped =
            if case .stopped(let message) = outcome { message.contains("levels deep") || message.contains("more work") } else { false }
        #expect(stopped || warnings.contains { $0.contains("levels deep") }, "\(outcome) \(warnings)")
        #expect(seconds < 5)
    }

    @Test func theParserRefusesTallTrees() {
        #expect(throws: TwineSyntaxError.tooTall) { try TwineParser.expression("1" + String(repeating: "+1", count: 500), harlowe: true) }
        for source in [String(repeating: "not ", count: 500) + "true", Self.nested] {
            #expect(throws: TwineSyntaxError.tooDeep) { try TwineParser.expression(source, harlowe: true) }
        }
        #expect((try? TwineParser.expression("1" + String(repeating: "+1", count: 30), harlowe: true)) != nil)
    }

    @Test func aStringDoubledWithoutEndStopsAtTheCap() throws {
        let doublings = String(repeating: "(set: $s to $s + $s)", count: 30)
        let interpreter = twine(.harlowe, [("Start", "(set: $s to \"ab\")\(doublings)(print: $s's length)")])
        let (passage, seconds) = onSmallStack { interpreter.start().passage }
        guard case .string(let s)? = passage.state.variables["s"] else {
            Issue.record("no $s")
            return
        }
        #expect(s.utf8.count <= TwineLimits.stringLength)
        #expect(passage.warnings.contains { $0.contains("longer than \(TwineLimits.stringLength)") }, "\(passage.warnings)")
        #expect(seconds < 2)
    }

    @Test func aListDoubledWithoutEndStopsAtTheCap() throws {
        let doublings = String(repeating: "<<set $l to $l + $l>>", count: 30)
        let interpreter = twine(.sugarcube, [("Start", "<<set $l to [1, 2]>>\(doublings)<<print $l.length>>")])
        let (passage, _) = onSmallStack { interpreter.start().passage }
        guard case .list(let l)? = passage.state.variables["l"] else {
            Issue.record("no $l")
            return
        }
        #expect(l.count <= TwineLimits.collectionSize)
        #expect(passage.warnings.contains { $0.contains("more than \(TwineLimits.collectionSize) items") }, "\(passage.warnings)")
    }

    @Test func listsNestedInThemselvesStopAtTheNestingLimit() {
        let wrappings = String(repeating: "<<set $l to [$l]>>", count: 500)
        let interpreter = twine(.sugarcube, [("Start", "<<set $l to []>>\(wrappings)Done.")])
        let (passage, _) = onSmallStack { interpreter.start().passage }
        #expect(passage.warnings.contains { $0.contains("\(TwineLimits.nesting) levels deep") }, "\(passage.warnings.prefix(2))")
    }

    @Test func workThatIsStoppedIsRefusedAndNotKept() throws {
        let source = twee("Harlowe", [("Start", "(set: $x to 1)Hello. [[On->End]]"), ("End", "The end.")])
        #expect(throws: StoryError.self) { try StoryIntake.accept(source, format: .twineTwee, work: TwineWork(steps: 10)) }
        let story = try TwineStory.read(twee: source)
        let interpreter = TwineInterpreter(story)
        let cut = interpreter.start(work: TwineWork(steps: 5)).passage
        #expect(cut.stopped)
        #expect(cut.text.contains("more work"))
        #expect(interpreter.start().passage.text == "Hello.")
    }

    @Test func aLongPassageIsCancelledWhenTheCallerAsks() {
        let long = String(repeating: "Words and more words. ", count: 20_000)
        let interpreter = twine(.harlowe, [("Start", long)])
        let passage = interpreter.start(work: TwineWork(shouldStop: { true })).passage
        #expect(passage.stopped)
        #expect(passage.text.contains("stopped before it finished"))
        #expect(!interpreter.start().passage.stopped)
    }

    /// Reading a large file of links was quadratic (13 s of CPU for 2 MB).
    @Test(arguments: [StoryIntake.Format.twee, .twineTwee])
    func aLargeLinkSoupIsReadInLinearTime(format: StoryIntake.Format) {
        var soup = ""
        var n = 0
        while soup.utf8.count < 2_000_000 {
            soup += "[[a\(n)]] [[b\(n)->c\(n)]] "
            n += 1
        }
        let (_, seconds) = refusal(twee("Harlowe", [("Start", soup)]), format: format)
        #expect(seconds < 3, "took \(seconds) s")
    }
}
