import Foundation
import Testing

@testable import ChooseYourDestiny

/// A story in `format` whose first passage is the start.
func twine(_ format: TwineStory.Format, _ passages: [(String, String)], tags: [String: [String]] = [:]) -> TwineInterpreter {
    TwineInterpreter(
        TwineStory(
            name: "Test", format: format, start: passages[0].0,
            passages: passages.map { TwineStory.Passage(name: $0.0, tags: tags[$0.0] ?? [], text: $0.1) }
        ))
}

extension TwineInterpreter {
    /// The passage reached by taking the choices with these texts, one after another, from the start.
    func walk(_ texts: [String]) throws -> (reading: TwineReading, passage: RenderedPassage) {
        var (reading, passage) = start()
        for text in texts {
            let index = try #require(
                passage.choices.firstIndex { $0.text == text },
                "no choice \"\(text)\" in \(passage.passage): \(passage.choices.map(\.text))")
            (reading, passage) = try choose(index, in: reading)
        }
        return (reading, passage)
    }
}

@Suite struct TwineExpressionTests {
    @Test(arguments: [
        ("1 + 2 * 3", TwineValue.number(7)), ("(1 + 2) * 3", .number(9)), ("7 % 4 - 10 / 4", .number(0.5)), ("-2 + 5", .number(3)),
        ("\"ab\" + \"cd\"", .string("abcd")), ("'n' + 1", .string("n1")),
        ("3 is 3", .bool(true)), ("3 is not 3", .bool(false)), ("2 > 1 and 1 >= 1", .bool(true)), ("2 < 1 or 1 <= 0", .bool(false)),
        ("not true", .bool(false)), ("\"tea\" contains \"e\"", .bool(true)), ("\"x\" is in \"xyz\"", .bool(true)),
        ("\"q\" is not in \"xyz\"", .bool(true)), ("(a: 1, 2) contains 2", .bool(true)), ("(a: 1) does not contain 2", .bool(true)),
        ("4 is 3 or 4", .bool(true)), ("5 is 3 or 4", .bool(false)), ("(str: 1, \"a\")", .string("1a")), ("(num: \"4\") + 1", .number(5)),
        ("(cond: false, 1, 2)", .number(2)), ("(a: 4, 5, 6)'s length", .number(3)), ("(a: 4, 5, 6)'s 2nd", .number(5)),
        ("(a: 4, 5, 6)'s last", .number(6)), ("\"it's\" contains \"'s\"", .bool(true)), ("(max: 1, 5, 3)", .number(5)),
        ("(a: 1, 2) + (a: 3)", .list([.number(1), .number(2), .number(3)])),
    ])
    func harloweExpressions(_ source: String, _ expected: TwineValue) throws {
        var run = TwineRun(
            story: TwineStory(name: "x", format: .harlowe, start: "A", passages: [.init(name: "A", text: "")]), passage: "A",
            state: ReaderState())
        #expect(try run.value(of: try TwineParser.expression(source, harlowe: true)) == expected)
    }

    @Test(arguments: [
        ("1 eq \"1\"", TwineValue.bool(true)), ("1 === \"1\"", .bool(false)), ("1 neq 2", .bool(true)), ("1 !== 1", .bool(false)),
        ("3 gt 2 && 2 gte 2", .bool(true)), ("1 lt 1 || 1 lte 0", .bool(false)), ("!false", .bool(true)), ("2 isnot 3", .bool(true)),
        ("[1, 2].includes(2)", .bool(true)), ("\"abc\".length", .number(3)), ("def $never", .bool(false)), ("ndef $never", .bool(true)),
        ("1 == 1 ? 2 : 3", .undefined),
    ])
    func sugarCubeExpressions(_ source: String, _ expected: TwineValue) throws {
        var run = TwineRun(
            story: TwineStory(name: "x", format: .sugarcube, start: "A", passages: [.init(name: "A", text: "")]), passage: "A",
            state: ReaderState())
        if expected == .undefined {
            // JavaScript's ?: is not part of what Trove reads: a clear error, not a wrong answer.
            #expect(throws: TwineSyntaxError.self) { try TwineParser.expression(source, harlowe: false) }
        } else {
            #expect(try run.value(of: try TwineParser.expression(source, harlowe: false)) == expected)
        }
    }

    @Test func valuesAreSavedAsPlainJSON() throws {
        let state = ReaderState(
            variables: ["n": .number(2), "s": .string("key"), "b": .bool(true), "l": .list([.number(1), .string("a")]), "u": .undefined],
            history: ["Start", "Hall"], seed: 7)
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(ReaderState.self, from: data) == state)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"l\":[1,\"a\"]") && text.contains("\"u\":null") && text.contains("\"b\":true"))
        #expect(TwineValue.number(3).text == "3" && TwineValue.number(2.5).text == "2.5")
    }
}

@Suite struct HarloweTests {
    @Test func setPutPrintAndNakedVariables() {
        let story = twine(
            .harlowe,
            [
                (
                    "A",
                    "(set: $gold to 5, $name to \"Ada\")(put: $gold * 2 into $double)(set: _tmp to 'x')$name has $gold, (print: $double) doubled, _tmp. Unset: $never."
                )
            ])
        let passage = story.start().passage
        #expect(passage.paragraphs == ["Ada has 5, 10 doubled, x. Unset: 0."])
        #expect(passage.state.variables == ["gold": .number(5), "name": .string("Ada"), "double": .number(10)])
        #expect(passage.warnings.isEmpty)
    }

    @Test(arguments: [(1, "one"), (2, "two"), (3, "many")])
    func ifElseIfElseChoosesOneHook(_ n: Int, _ word: String) {
        let story = twine(
            .harlowe, [("A", "(set: $n to \(n))(if: $n is 1)[one](else-if: $n is 2)[two](else:)[many](unless: $n > 1)[ alone]")])
        #expect(story.start().passage.text == word + (n == 1 ? " alone" : ""))
    }

    @Test func linksInMacrosBecomeChoices() throws {
        let story = twine(
            .harlowe,
            [
                (
                    "A",
                    """
                    [[Plain]] [[Words->Arrow]] [[Back<-Left words]]
                    (link-goto: "Macro link", "Plain")(link-goto: "Arrow")(click-goto: "Click here", "Left")
                    (link: "Take the key")[(set: $key to true)(goto: "Arrow")]
                    """
                ),
                ("Plain", "p"), ("Arrow", "(if: $key)[key]"), ("Back", "b"), ("Left", "l"),
            ])
        let start = story.start().passage
        #expect(start.choices.map(\.text) == ["Plain", "Words", "Left words", "Macro link", "Arrow", "Click here", "Take the key"])
        #expect(start.choices.map(\.target) == ["Plain", "Arrow", "Back", "Plain", "Arrow", "Left", "Arrow"])
        #expect(start.state.variables["key"] == nil, "a link's hook runs only when it is taken")
        #expect(try story.walk(["Take the key"]).passage.text == "key")
        #expect(try story.walk(["Words"]).passage.text == "")
    }

    /// Harlowe and SugarCube show a link in a sentence among its words: they stay in the text, and it is a choice.
    @Test(arguments: [TwineStory.Format.harlowe, .sugarcube, .other("Snowman")])
    func aLinkInASentenceKeepsItsWordsThere(format: TwineStory.Format) {
        let story = twine(
            format,
            [
                ("Hall", "You can [[open the red door->Red]] or just [[wait here->Wait]] for a while.\n[[Leave]]"), ("Red", "r"),
                ("Wait", "w"), ("Leave", "l"),
            ])
        let hall = story.start().passage
        #expect(hall.text == "You can open the red door or just wait here for a while.")
        #expect(hall.choices.map(\.target) == ["Red", "Wait", "Leave"])
        #expect(TwineText.withoutLinks("Open [[the door->Red]].\n\n[[Wait]]") == "Open the door.")
    }

    @Test func gotoGoesOnAndKeepsWhatWasSet() {
        let story = twine(.harlowe, [("A", "Never shown.(set: $x to 1)(goto: \"B\")"), ("B", "(set: $x to it + 1)Now $x.")])
        let passage = story.start().passage
        #expect(passage.passage == "B" && passage.text == "Now 2.")
        #expect(passage.state.history == ["A", "B"])
    }

    @Test func aGotoLoopIsStoppedWithAClearMessage() {
        let story = twine(.harlowe, [("A", "(goto: \"B\")"), ("B", "(set: $n to it + 1)(goto: \"A\")")])
        let passage = story.start().passage
        #expect(passage.stopped && passage.choices.isEmpty)
        #expect(passage.paragraphs.last?.contains("through (goto:) \(TwineInterpreter.gotoLimit) times") == true)
        #expect(passage.warnings.count == 1)
    }

    @Test func displayIncludesAnotherPassageAndAPassageThatDisplaysItselfStops() {
        let story = twine(.harlowe, [("A", "Top. (display: \"Part\") End."), ("Part", "(set: $seen to true)middle [[Go->A]]")])
        let passage = story.start().passage
        #expect(
            passage.text == "Top. middle Go End." && passage.state.variables["seen"] == .bool(true)
                && passage.choices.map(\.target) == ["A"])
        let loop = twine(.harlowe, [("A", "x(display: \"A\")")]).start().passage
        #expect(loop.stopped && loop.warnings.first?.contains("included within itself") == true)
    }

    @Test func historyVisitsAndVisited() throws {
        let story = twine(
            .harlowe,
            [
                (
                    "A",
                    "Visit (print: visits).(if: (history:) contains \"B\")[ Back from B.](if: (visited: \"B\"))[ Seen B.](if: (history:)'s length > 1)[ Came from (print: (history:)'s last).] [[B]]"
                ),
                ("B", "[[A]]"),
            ])
        #expect(story.start().passage.text == "Visit 1.")
        #expect(try story.walk(["B", "A"]).passage.text == "Visit 2. Back from B. Seen B. Came from B.")
    }

    @Test func hooksCollapsingAndNamedHooksShowTheirText() {
        let story = twine(.harlowe, [("A", "{\n  (set: $a to 1)\n  One\n  two\n} |note>[Named] [plain]<tag| `(set: $v to 1)`")])
        let passage = story.start().passage
        #expect(passage.text == "One two Named plain (set: $v to 1)")
        #expect(passage.state.variables["v"] == nil)
    }

    @Test func unsupportedMacrosAreKeptAsTextAndWarnedAbout() {
        let story = twine(.harlowe, [("A", "(live: 2s)[tick](text-colour: red)[Red] <script>alert(1)</script>")])
        let passage = story.start().passage
        #expect(
            passage.text.contains("(live: 2s)[tick]") && passage.text.contains("Red") && passage.text.contains("<script>alert(1)</script>"))
        #expect(passage.warnings.contains("Passage \"A\" uses (live:), which Trove shows as text."))
        #expect(passage.warnings.contains("Passage \"A\" uses <script>, which Trove shows as text."))
        let imported = story.story.troveStory()
        #expect(imported.warnings.contains("Passage \"A\" uses (live:), which Trove shows as text."))
    }

    @Test func aLinkThatLeadsNowhereShowsWhatItRevealsAndLinksToAddressesAreWords() {
        let story = twine(
            .harlowe, [("A", "(link: \"Open the box\")[(set: $open to true)It is empty.] See [[the map->https://example.org/map]].")])
        let passage = story.start().passage
        #expect(passage.text == "It is empty. See the map.")
        #expect(passage.choices.isEmpty && passage.state.variables["open"] == .bool(true))
        #expect(passage.warnings == ["Passage \"A\": (link:) \"Open the box\" leads nowhere, so Trove shows what it reveals at once."])
        let sugar = twine(
            .sugarcube, [("A", "See [[the map|https://example.org/map]]. <<linkreplace \"Knock\">>Nobody answers.<</linkreplace>>")]
        ).start().passage
        #expect(sugar.text == "See the map. Nobody answers." && sugar.choices.isEmpty)
    }

    @Test func errorsInAnExpressionAreWarningsNotCrashes() {
        let passage = twine(.harlowe, [("A", "(set: $x to 1 / 0)(if: $x is)[y]ok")]).start().passage
        #expect(passage.text == "ok")
        #expect(passage.warnings.count == 2 && passage.warnings.allSatisfy { $0.hasPrefix("Passage \"A\":") })
    }

    @Test func startupPassagesSetTheFirstState() {
        let story = twine(.harlowe, [("A", "$lives lives"), ("Init", "(set: $lives to 3)")], tags: ["Init": ["startup"]])
        #expect(story.start().passage.text == "3 lives")
        #expect(!story.story.troveStory().story.chapters.contains { $0.id == "Init" })
    }
}

@Suite struct SugarCubeTests {
    @Test func setUnsetPrintAndTemporaryVariables() {
        let story = twine(
            .sugarcube,
            [
                (
                    "A",
                    "<<set $a to 2; $b = 3>><<set $a += $b, _t to \"tmp\">><<set $gone to 1>><<unset $gone>>$a <<print $a * 2>> <<= $b>> _t $undefined."
                )
            ])
        let passage = story.start().passage
        #expect(passage.text == "5 10 3 tmp .")
        #expect(passage.state.variables == ["a": .number(5), "b": .number(3)])
    }

    @Test(arguments: [(1, "one"), (2, "two"), (5, "other")])
    func ifElseifElse(_ n: Int, _ word: String) {
        let story = twine(
            .sugarcube,
            [("A", "<<set $n to \(n)>><<if $n eq 1>>one<<elseif $n is 2>>two<<else>><<if $n gt 4>>other<<else>>few<</if>><</if>>")])
        #expect(story.start().passage.text == word)
    }

    @Test func switchCase() {
        let story = twine(
            .sugarcube, [("A", "<<set $c to \"b\">><<switch $c>><<case \"a\">>A<<case \"b\" \"c\">>B or C<<default>>D<</switch>>")])
        #expect(story.start().passage.text == "B or C")
    }

    @Test func linksAndButtonsInMacrosBecomeChoices() throws {
        let story = twine(
            .sugarcube,
            [
                (
                    "A",
                    """
                    <<link "Quoted" "B">><<set $via to "quoted">><</link>>
                    <<link [[Wiki link|B][$via to "setter"]]>><</link>>
                    <<button "Press" "C">><</button>>
                    <<link "Body goto">><<set $via to "body">><<goto "C">><</link>>
                    [[Setter|B][$via to "plain"]]
                    <<actions [[B]] "C">>
                    """
                ),
                ("B", "B via $via"), ("C", "C via $via"),
            ])
        let start = story.start().passage
        #expect(start.choices.map(\.text) == ["Quoted", "Wiki link", "Press", "Body goto", "Setter", "B", "C"])
        #expect(start.choices.map(\.target) == ["B", "B", "C", "C", "B", "B", "C"])
        #expect(try story.walk(["Quoted"]).passage.text == "B via quoted")
        #expect(try story.walk(["Wiki link"]).passage.text == "B via setter")
        #expect(try story.walk(["Body goto"]).passage.text == "C via body")
        #expect(try story.walk(["Setter"]).passage.text == "B via plain")
        #expect(try story.walk(["Press"]).passage.text == "C via")
    }

    @Test func gotoIncludeBackAndReturn() throws {
        let story = twine(
            .sugarcube,
            [
                ("A", "<<set $n to 1>>[[B]]"),
                ("B", "<<set $n += 1>><<include \"Part\">> <<back>> <<return \"Again\">> [[C]]"),
                ("Part", "n is $n."),
                ("C", "<<goto [[D]]>>"),
                ("D", "D at $n, after <<print previous()>>."),
            ])
        let b = try story.walk(["B"]).passage
        #expect(b.text == "n is 2.")
        #expect(b.choices.map(\.kind) == [.back, .go, .go] && b.choices.map(\.target) == ["A", "A", "C"])
        let back = try story.walk(["B", "Back"])
        #expect(back.passage.passage == "A" && back.passage.state.variables["n"] == .number(1) && back.reading.choices.isEmpty)
        let again = try story.walk(["B", "Again"]).passage
        #expect(again.passage == "A" && again.state.history == ["A", "B", "A"])
        let d = try story.walk(["B", "C"]).passage
        #expect(d.passage == "D" && d.text == "D at 2, after C.")
    }

    @Test func visitedTurnsAndStoryInit() throws {
        let story = twine(
            .sugarcube,
            [
                ("A", "Seen <<= visited()>>, B <<= visited(\"B\")>>, turn <<= turns()>>, $start. [[B]]"),
                ("B", "[[A]]"),
                ("StoryInit", "<<set $start to \"ready\">>"),
            ])
        #expect(story.start().passage.text == "Seen 1, B 0, turn 1, ready.")
        #expect(try story.walk(["B", "A"]).passage.text == "Seen 2, B 1, turn 3, ready.")
    }

    @Test func headerFooterAndHasVisited() throws {
        let story = twine(
            .sugarcube,
            [
                ("A", "<<if hasVisited(\"B\")>>Back.<<else>>First.<</if>> [[B]]"), ("B", "[[A]]"),
                ("PassageHeader", "~ <<= passage()>> ~"), ("PassageFooter", "Turn <<= turns()>>."),
            ])
        #expect(story.start().passage.paragraphs == ["~ A ~", "First.", "Turn 1."])
        #expect(try story.walk(["B", "A"]).passage.paragraphs == ["~ A ~", "Back.", "Turn 3."])
        let harlowe = twine(
            .harlowe,
            [("A", "Body. (link-undo: \"Undo\")[[B]]"), ("B", "Body B. (link-undo: \"Undo\")"), ("Top", "Top."), ("End", "End.")],
            tags: ["Top": ["header"], "End": ["footer"]])
        let b = try harlowe.walk(["B"])
        #expect(b.passage.paragraphs == ["Top.", "Body B.", "End."])
        #expect(b.passage.choices == [TwineChoice(text: "Undo", target: "A", kind: .back)])
        #expect(try harlowe.choose(0, in: b.reading).passage.passage == "A")
        #expect(!harlowe.story.troveStory().story.chapters.contains { $0.id == "Top" || $0.id == "End" })
    }

    @Test func unsupportedMacrosScriptsAndWidgetsAreKeptAsTextAndWarnedAbout() {
        let story = twine(
            .sugarcube,
            [
                ("A", "<<script>>State.variables.x = 1;<</script>><<timed 2s>>Later<</timed>><<myWidget \"x\">> <<set $ok to true>>$ok"),
                ("Widgets", "<<widget \"myWidget\">>hi<</widget>>"),
            ], tags: ["Widgets": ["widget"]])
        let passage = story.start().passage
        #expect(passage.text.contains("<<script>>State.variables.x = 1;<</script>>"))
        #expect(
            passage.text.contains("<<timed 2s>>Later<</timed>>") && passage.text.contains("<<myWidget \"x\">>")
                && passage.text.hasSuffix("true"))
        #expect(passage.warnings.contains("Passage \"A\" uses <<script>>, which Trove shows as text."))
        #expect(passage.warnings.contains("Passage \"A\" uses <<myWidget>>, which Trove shows as text."))
        #expect(passage.state.variables["x"] == nil)
        let imported = story.story.troveStory()
        #expect(imported.warnings.contains("Passage \"A\" uses <<timed>>, which Trove shows as text."))
        #expect(!imported.story.chapters.contains { $0.id == "Widgets" })
    }

    @Test func randomIsRepeatableFromTheSeed() throws {
        let story = twine(.sugarcube, [("A", "<<set $d to random(1, 6)>><<set $e to either(\"x\", \"y\", \"z\")>>$d$e [[A]]")])
        let first = story.start(seed: 42).passage.text
        #expect(story.start(seed: 42).passage.text == first)
        let (reading, _) = try story.walk(["A", "A", "A"])
        let replayed = try story.replay(seed: 0, choices: reading.choices)
        #expect(replayed.passages.last == story.current(reading))
        for _ in 0..<20 {
            let value = story.start(seed: UInt64.random(in: 0...1000)).passage.state.variables["d"]
            guard case .number(let n)? = value else {
                Issue.record("no number: \(String(describing: value))")
                return
            }
            #expect((1...6).contains(n))
        }
    }
}

@Suite struct TwineReadingTests {
    /// Keeps a score across passages.
    static let scored = twine(
        .harlowe,
        [
            ("Start", "(set: $score to 0)[[Up]]"),
            ("Up", "(set: $score to it + 10)Score $score. [[Up]] [[Done]]"),
            ("Done", "(if: $score >= 30)[High: $score](else:)[Low: $score]"),
        ])

    @Test func variablesAreCarriedAcrossPassagesAndDecideTheEnding() throws {
        let story = Self.scored
        #expect(try story.walk(["Up", "Up", "Up", "Done"]).passage.text == "High: 30")
        #expect(try story.walk(["Up", "Done"]).passage.text == "Low: 10")
    }

    @Test func rewindingRestoresTheVariablesAsTheyWereThere() throws {
        let story = Self.scored
        let (reading, passage) = try story.walk(["Up", "Up", "Up"])
        #expect(passage.state.variables["score"] == .number(30) && reading.choices.count == 3)
        let (rewound, there) = try story.rewind(reading, to: 1)
        #expect(there.passage == "Up" && there.text.hasPrefix("Score 10.") && there.state.variables["score"] == .number(10))
        #expect(rewound.choices.count == 1 && rewound.entry.variables["score"] == .number(0))
        #expect(try story.choose(1, in: rewound).passage.text == "Low: 10")
        #expect(throws: TwinePlayError.self) { try story.rewind(reading, to: 9) }
        #expect(throws: TwinePlayError.self) { try story.choose(7, in: reading) }
    }

    @Test func aPassageRenderedAgainWithTheSameStateIsTheKeptOneAndTheKeepIsBounded() throws {
        let story = twine(.harlowe, Self.scored.story.passages.map { ($0.name, $0.text) })
        let (reading, passage) = try story.walk(["Up", "Up"])
        #expect(story.renderedPassages.count == 3, "Start, then Up twice with different scores")
        #expect(story.current(reading) == passage)
        #expect(story.renderedPassages.count == 3, "the same passage and state: the kept rendering")
        #expect(story.keptCurrent(reading) == passage)
        var richer = reading
        richer.entry.variables["score"] = .number(90)
        #expect(story.keptCurrent(richer) == nil, "asking for a kept one renders nothing")
        #expect(story.current(richer).text.hasPrefix("Score 100."), "another state is rendered anew")
        #expect(story.keptCurrent(richer)?.text.hasPrefix("Score 100.") == true)
        for seed in 0..<UInt64(RenderedPassages.capacity + 10) {
            _ = story.render(passage: "Up", state: ReaderState(variables: ["score": .number(1)], seed: seed))
        }
        #expect(story.renderedPassages.count <= RenderedPassages.capacity)
        #expect(story.current(reading) == passage, "rendered anew after the keep started again: the same passage")
    }

    @Test func theReadingIsSavedAndResumed() throws {
        let story = Self.scored
        let (reading, passage) = try story.walk(["Up", "Up"])
        let saved = try JSONEncoder().encode(reading)
        let restored = try JSONDecoder().decode(TwineReading.self, from: saved)
        #expect(story.current(restored) == passage)
    }
}
