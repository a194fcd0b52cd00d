import ChooseYourDestiny
import Testing

@Suite struct LenientJSONTests {
    @Test func acceptsTrailingCommasAndReadsValues() throws {
        let value = try LenientJSON.parse(#"{"a": [1, 2.5, "x\n\u00e9\ud83d\ude00",], "b": {"c": true, "d": null,},}"#)
        #expect(value["a"] == .array([.number(1), .number(2.5), .string("x\né😀")]))
        #expect(value["b"]?["c"] == .bool(true) && value["b"]?["d"] == .null)
    }

    @Test(arguments: [
        ("{\"a\": 1\n  \"b\": 2}", 2, 3),
        ("{\n  \"a\": [1, 2\n}", 3, 1),
        ("{\"a\": \"unterminated\n}", 1, 20),
        ("{\"a\": tru}", 1, 7),
        ("[1, 2] x", 1, 8),
        ("", 1, 1),
    ])
    func reportsLineAndColumn(_ text: String, _ line: Int, _ column: Int) {
        #expect(throws: JSONSyntaxError.self) { try LenientJSON.parse(text) }
        do {
            _ = try LenientJSON.parse(text)
        } catch {
            #expect(error.line == line && error.column == column, "\(error)")
        }
    }
}

@Suite struct StoryFileTests {
    /// As the original authors published it: numeric ids, trailing commas, the start flag on one chapter only.
    static let seedStory = """
        {"story": {"id": 7, "name": "The Pub", "pic_path": "resources/pub.jpg", "rating": 4, "summary": "A night out.",
          "chapters": [
            {"id": 1, "name": "Arrival", "is_first_chapter": true, "text": "You walk in.\\n\\nIt is loud.", "pic_path": "resources/door.jpg",
             "choices": [{"chapter_id": 2, "text": "Order a pint"}, {"chapter_id": 3, "text": "Leave",},],},
            {"id": 2, "name": "Bar", "text": "The pint is warm.", "choices": [{"chapter_id": 3, "text": "Go home"}]},
            {"id": 3, "name": "Home", "text": "You sleep."},
          ],
        }}
        """

    @Test func readsTheSeedFormat() throws {
        let story = try StoryFile.read(Self.seedStory)
        #expect(story.id == "7" && story.name == "The Pub" && story.rating == "4" && story.picPath == "resources/pub.jpg")
        #expect(story.startChapter?.id == "1")
        #expect(story.chapters[0].paragraphs == ["You walk in.", "It is loud."])
        #expect(story.chapters[0].choices == [Choice(chapterID: "2", text: "Order a pint"), Choice(chapterID: "3", text: "Leave")])
        #expect(story.chapters[2].isEnding)
        #expect(StoryValidation(story).isValid)
    }

    /// A rating is kept as text: whole numbers without ".0", and ones beyond Int64 without trapping (fuzzing found it).
    @Test(arguments: [("4", "4"), ("4.5", "4.5"), ("-1e19", "-1e+19"), ("9.3e18", "9.3e+18"), ("1.5e300", "1.5e+300")])
    func keepsAnyNumericRatingAsText(_ written: String, _ expected: String) throws {
        let story = try StoryFile.read(#"{"story": {"id": "a", "name": "b", "rating": \#(written), "chapters": [{"id": 1, "text": "x"}]}}"#)
        #expect(story.rating == expected)
    }

    @Test func writesWhatItReadsBack() throws {
        var story = try StoryFile.read(Self.seedStory)
        story.author = "ada"
        story.chapters[1].videoURL = "https://example.org/v.mp4"
        #expect(try StoryFile.read(StoryFile.write(story)) == story)
        #expect(StoryFile.write(story).contains("\"is_first_chapter\" : true"))
    }

    @Test func namesWhatIsWrongInAMalformedFile() {
        #expect(throws: StoryFile.FormatError.self) { try StoryFile.read("{\"chapters\": []}") }
        #expect(throws: StoryFile.FormatError.self) { try StoryFile.read("{\"story\": {\"id\": 1, \"chapters\": [{\"id\": [1]}]}}") }
        do {
            _ = try StoryFile.read("{\"story\": {\n\"id\": 1 \"name\": 2}}")
        } catch {
            #expect(error.description.contains("line 2"))
        }
    }
}

@Suite struct StoryValidationTests {
    func story(_ chapters: [Chapter]) -> Story { Story(id: "s", name: "S", chapters: chapters) }
    let ending = Chapter(id: "end", name: "End", text: "Done.")

    func errors(_ chapters: [Chapter]) -> [String] { StoryValidation(story(chapters)).errors }

    @Test func needsExactlyOneStart() {
        #expect(
            errors([Chapter(id: "a", name: "", text: "x", choices: [Choice(chapterID: "end", text: "go")]), ending])
                .contains { $0.contains("No chapter is marked as the first") })
        #expect(
            errors([Chapter(id: "a", name: "", isFirst: true, text: "x"), Chapter(id: "b", name: "", isFirst: true, text: "y")])
                .contains { $0.contains("Several chapters") && $0.contains("\"a\"") && $0.contains("\"b\"") })
    }

    @Test func findsDuplicateIdsDanglingChoicesAndEmptyText() {
        let found = errors([
            Chapter(
                id: "a", name: "Gate", isFirst: true, text: "x",
                choices: [Choice(chapterID: "nowhere", text: "go"), Choice(chapterID: "end", text: " ")]),
            Chapter(id: "a", name: "Again", text: "  "), ending,
        ])
        #expect(found.contains("Chapter id \"a\" is used by more than one chapter."))
        #expect(found.contains("Chapter \"a\" (Gate), choice 1 leads to chapter \"nowhere\", which does not exist."))
        #expect(found.contains("Chapter \"a\" (Gate), choice 2 has no text."))
        #expect(found.contains("Chapter \"a\" (Again) has no text."))
    }

    @Test func needsAnEndingThatCanBeReached() {
        let loop = [
            Chapter(id: "a", name: "", isFirst: true, text: "x", choices: [Choice(chapterID: "b", text: "on")]),
            Chapter(id: "b", name: "", text: "y", choices: [Choice(chapterID: "a", text: "back")]),
        ]
        #expect(errors(loop).contains("The story has no ending: every chapter offers choices."))
        let unreachableEnd = loop + [ending]
        let validation = StoryValidation(story(unreachableEnd))
        #expect(validation.errors == ["No ending can be reached from the first chapter."])
        #expect(validation.warnings == ["Chapter \"end\" (End) cannot be reached from the first chapter."])
    }

    @Test func warnsOfUnreachableChaptersButAccepts() {
        let validation = StoryValidation(
            story([
                Chapter(id: "a", name: "", isFirst: true, text: "x", choices: [Choice(chapterID: "end", text: "go")]), ending,
                Chapter(id: "lost", name: "", text: "Nobody comes here."),
            ]))
        #expect(validation.isValid && validation.warnings.count == 1)
    }

    @Test func refusesOversizeStories() {
        let many = (0...StoryValidation.Limits.chapters).map { Chapter(id: "c\($0)", name: "", isFirst: $0 == 0, text: "x") }
        #expect(errors(many).contains { $0.contains("at most \(StoryValidation.Limits.chapters)") })
        #expect(
            errors([Chapter(id: "a", name: "", isFirst: true, text: String(repeating: "x", count: StoryValidation.Limits.chapterText + 1))])
                .contains { $0.contains("longer than") })
        #expect(errors([]) == ["The story has no chapters."])
    }
}

@Suite struct TweeTests {
    static let source = #"""
        :: StoryTitle
        The Lighthouse

        :: StoryData
        {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FC", "format": "SugarCube", "start": "Shore",}

        :: UserScript [script]
        window.x = 1;

        :: Shore [beach start] {"position":"100,100"}
        The sea is grey.

        [[Climb the stairs->Lamp Room]]
        [[Swim|Sea]]
        [[Sea<-Wade in]]
        [[Lamp Room]]
        See [[the map->https://example.org/map]].

        :: Lamp Room
        <<if $oil>>The lamp burns.<</if>>
        [[Back->Shore][$visits += 1]]

        :: Sea
        The end, wet.

        :: Odd \[name\] [x]
        Alone.
        """#

    @Test func readsPassagesWithTagsMetadataAndEscapes() throws {
        let passages = try Twee.parsePassages(Self.source)
        #expect(passages.map(\.name) == ["StoryTitle", "StoryData", "UserScript", "Shore", "Lamp Room", "Sea", "Odd [name]"])
        #expect(passages[3].tags == ["beach", "start"] && passages[6].tags == ["x"])
        #expect(passages[5].text == "The end, wet.")
    }

    @Test func turnsLinksIntoChoicesAsTwineDoes() {
        #expect(Twee.links(in: "[[A->B->C]]").choices == [Choice(chapterID: "C", text: "A->B")])
        #expect(Twee.links(in: "[[C<-B<-A]]").choices == [Choice(chapterID: "C", text: "B<-A")])
        #expect(Twee.links(in: "[[Go|There]]").choices == [Choice(chapterID: "There", text: "Go")])
        #expect(Twee.links(in: "[[There]]").choices == [Choice(chapterID: "There", text: "There")])
        #expect(Twee.links(in: "[[Back][$x to 1]]").choices == [Choice(chapterID: "Back", text: "Back")])
        let external = Twee.links(in: "Read [[the map->https://example.org]] first.")
        #expect(external.choices.isEmpty && external.text == "Read the map first.")
    }

    /// A link in a sentence keeps its words there, as Twine shows it; a line of links alone is the choices only.
    @Test func aLinkInASentenceKeepsItsWordsThere() {
        let read = Twee.links(
            in: "You can [[open the red door->Red]] or just [[wait here->Wait]] for a while.\n[[Leave]] [[Stay]]\nReady? [[Run]]")
        #expect(read.text == "You can open the red door or just wait here for a while.\n\nReady?")
        #expect(read.choices.map(\.chapterID) == ["Red", "Wait", "Leave", "Stay", "Run"])
        #expect(Twee.links(in: "<<set $x to 1>>[[Go]] $x").text == "<<set $x to 1>> $x")
    }

    @Test func importsAStoryWithItsStartTitleAndWarnings() throws {
        let result = try Twee.importStory(Self.source)
        let story = result.story
        #expect(story.name == "The Lighthouse" && story.id == "d674c58c-defa-4f70-b7a2-27742230c0fc")
        #expect(story.chapters.map(\.id) == ["Shore", "Lamp Room", "Sea", "Odd [name]"])
        #expect(story.startChapter?.id == "Shore")
        let shore = story.chapters[0]
        #expect(shore.choices.map(\.chapterID) == ["Lamp Room", "Sea", "Sea", "Lamp Room"])
        #expect(shore.choices.map(\.text) == ["Climb the stairs", "Swim", "Wade in", "Lamp Room"])
        #expect(shore.text == "The sea is grey.\n\nSee the map.")
        #expect(result.warnings == ["Passage \"Lamp Room\" uses <<if>>, which Trove shows as text."])
        let validation = StoryValidation(story)
        #expect(validation.isValid && validation.warnings.count == 1)
    }

    @Test func findsTheStartByNameOrSaysThereIsNone() throws {
        #expect(try Twee.importStory(":: Start\nHello.").story.startChapter?.id == "Start")
        #expect(throws: Twee.FormatError.self) { try Twee.importStory(":: Begin\nHello.") }
        #expect(throws: Twee.FormatError.self) { try Twee.importStory("no passages at all") }
        #expect(throws: Twee.FormatError.self) { try Twee.importStory(":: StoryData\n{\"start\": \"Nope\"}\n:: A\nx") }
    }
}

@Suite struct StoryMapTests {
    @Test func placesChaptersByDistanceFromTheStartAndMarksEndingsAndStrays() {
        let story = Story(
            id: "s", name: "S",
            chapters: [
                Chapter(
                    id: "a", name: "Gate", isFirst: true, text: "x",
                    choices: [Choice(chapterID: "b", text: "1"), Choice(chapterID: "c", text: "2")]),
                Chapter(id: "b", name: "", text: "x", choices: [Choice(chapterID: "c", text: "on"), Choice(chapterID: "a", text: "back")]),
                Chapter(id: "c", name: "End", text: "x"),
                Chapter(id: "lost", name: "Lost", text: "x"),
            ])
        let map = StoryMap(story)
        #expect(map.nodes.map(\.column) == [0, 1, 1, 2])
        #expect(map.nodes.map(\.kind) == [.start, .chapter, .ending, .unreachable])
        #expect(map.nodes.map(\.row) == [0, 0, 1, 0])
        #expect(map.nodes[1].name == "b")
        #expect(map.edges.count == 4 && map.columns == 3 && map.rows == 2)
    }
}
