import Foundation
import Testing

@testable import ChooseYourDestiny

/// The project's own sample stories, as Twine 2 published them.
enum TwineSamples {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples/stories")

    static func html(_ folder: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("\(folder)/story.html"), encoding: .utf8)
    }

    static func story(_ folder: String) throws -> TwineStory { try TwineHTML.read(try html(folder)) }
}

@Suite struct TwineHTMLTests {
    static let published = """
        <!DOCTYPE html><html><head><title>x</title><script>window.harlowe = 1 < 2;</script></head><body>
        <tw-storydata name="Tea &amp; Biscuits" startnode="2" creator="Twine" creator-version="2.6.2" format="Harlowe"
          format-version="3.3.8" ifid="5A3E2C1B-0F9D-4E8B-A7C6-1D2E3F4A5B6C" options="" tags="" zoom="1" hidden>
        <style role="stylesheet" id="twine-user-stylesheet" type="text/twine-css">tw-passage { color: red; }</style>
        <script role="script" id="twine-user-script" type="text/twine-javascript">window.x = "<tw-passagedata>";</script>
        <tw-tag name="kitchen" color="green"></tw-tag>
        <tw-passagedata pid="1" name=" Pantry &amp; Larder" tags="kitchen dark" position="100,100" size="100,100">A tin marked &quot;biscuits&quot; &amp; a jar &lt;empty&gt;. It&#39;s &#x263A;.</tw-passagedata>
        <tw-passagedata pid="2" name="Kitchen" tags="" position="225,100" size="100,100">The kettle sings.

        [[Open the pantry-> Pantry &amp; Larder]]</tw-passagedata>
        </tw-storydata></body></html>
        """

    @Test func readsTheStoryDataAndEveryPassageWithEntitiesDecoded() throws {
        let story = try TwineHTML.read(Self.published)
        #expect(story.name == "Tea & Biscuits" && story.ifid == "5A3E2C1B-0F9D-4E8B-A7C6-1D2E3F4A5B6C")
        #expect(story.format == .harlowe && story.formatVersion == "3.3.8")
        #expect(story.start == "Kitchen")
        #expect(story.passages.map(\.name) == [" Pantry & Larder", "Kitchen"])
        #expect(story.passages.map(\.pid) == ["1", "2"])
        #expect(story.passages[0].tags == ["kitchen", "dark"])
        #expect(story.passages[0].text == "A tin marked \"biscuits\" & a jar <empty>. It's ☺.")
        #expect(story.warnings == ["The story's JavaScript is not run by Trove."])
    }

    /// What the server stores to play the story again later: nothing is lost, spaces in names included.
    @Test func writesTheStoryBackWithoutLoss() throws {
        let story = try TwineHTML.read(Self.published)
        #expect(try TwineHTML.read(story.html()) == story)
        for folder in ["twine-harlowe", "twine-sugarcube"] {
            let sample = try TwineSamples.story(folder)
            #expect(try TwineHTML.read(sample.html()) == sample)
        }
    }

    @Test func keepsPassageNamesAsTwineKeepsThemSoLinksFindThem() throws {
        let imported = try TwineHTML.read(Self.published).troveStory()
        #expect(!imported.needsInterpreter)
        #expect(imported.story.chapters[1].choices == [Choice(chapterID: " Pantry & Larder", text: "Open the pantry")])
        #expect(StoryValidation(imported.story).isValid)
    }

    @Test func refusesWhatIsNotATwine2Story() {
        for (html, words) in [
            ("<html><body><p>Hello</p></body></html>", "not a Twine 2 story"),
            ("<html><body><div id=\"storeArea\"><div tiddler=\"Start\">x</div></div></body></html>", "Twine 1"),
            ("<tw-storydata name=\"Empty\" startnode=\"1\"></tw-storydata>", "no passages"),
            (
                "<tw-storydata name=\"S\" startnode=\"9\"><tw-passagedata pid=\"1\" name=\"A\">x</tw-passagedata></tw-storydata>",
                "no passage has that pid"
            ),
            // Cut off (a download that stopped): refused, not published without its end.
            (Self.published.components(separatedBy: "sings.")[0], "cut off"),
            ("<tw-storydata name=\"S\" startnode=\"1\"><tw-passagedata pid=\"1\" name=\"A\">x</tw-storydata>", "Passage \"A\" has no end"),
        ] {
            #expect(throws: TwineStory.FormatError.self) { try TwineHTML.read(html) }
            do {
                _ = try TwineHTML.read(html)
            } catch {
                #expect(error.description.contains(words), "\(error.description)")
            }
        }
        #expect(TwineHTML.isTwineHTML(Self.published) && !TwineHTML.isTwineHTML(":: Start\nx"))
    }

    @Test func twoPassagesWithOneNameWarnAndTheLaterIsKept() throws {
        let html = """
            <tw-storydata name="S" startnode="1" format="Harlowe"><tw-passagedata pid="1" name="A">first [[B]]</tw-passagedata>\
            <tw-passagedata pid="2" name="B">old</tw-passagedata><tw-passagedata pid="3" name="B">new</tw-passagedata></tw-storydata>
            """
        let story = try TwineHTML.read(html)
        #expect(story.passages.map(\.name) == ["A", "B"])
        #expect(story.passage(named: "B")?.text == "new")
        #expect(story.warnings == ["Two passages are named \"B\": the later one is kept."])
        let twee = try TwineStory.read(twee: ":: Start\n[[B]]\n:: B\nold\n:: B\nnew\n")
        #expect(twee.passage(named: "B")?.text == "new" && twee.warnings.count == 1)
    }

    @Test func tweeAndHTMLOfOneStoryGiveTheSameTroveStory() throws {
        let twee = """
            :: StoryTitle
            The Shore

            :: StoryData
            {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FC", "format": "Harlowe", "format-version": "3.3.8", "start": "Shore"}

            :: Shore [beach]
            The sea is ''grey'' & cold.

            [[Climb the stairs->Lamp Room]]
            [[Swim|Sea]]

            :: Lamp Room
            The lamp is out. <b>Dark.</b>
            [[Sea<-Wade back down]]

            :: Sea
            The end, //wet//.
            """
        let fromTwee = try TwineStory.read(twee: twee)
        let fromHTML = try TwineHTML.read(fromTwee.html())
        #expect(fromHTML.passages.map(\.text) == fromTwee.passages.map(\.text))
        #expect(
            fromHTML.troveStory() == TwineImport(twine: fromHTML, story: fromTwee.troveStory().story, needsInterpreter: false, warnings: [])
        )
        let story = fromTwee.troveStory().story
        #expect(story.id == "d674c58c-defa-4f70-b7a2-27742230c0fc" && story.name == "The Shore" && story.startChapter?.id == "Shore")
        #expect(story.chapters[0].text == "The sea is **grey** & cold.")
        #expect(story.chapters[1].text == "The lamp is out. **Dark.**")
        #expect(story.chapters[2].text == "The end, *wet*.")
        #expect(
            story.chapters[0].choices == [Choice(chapterID: "Lamp Room", text: "Climb the stairs"), Choice(chapterID: "Sea", text: "Swim")])

        // And back: each sample as Twee, read again, is the same story.
        for folder in ["twine-harlowe", "twine-sugarcube"] {
            let html = try TwineSamples.story(folder)
            let again = try TwineStory.read(twee: html.twee())
            #expect(again.troveStory().story == html.troveStory().story)
            #expect(again.format == html.format && again.start == html.start)
        }
    }

    @Test func storyIntakeAcceptsTwineHTMLAndSaysWhetherItNeedsTheInterpreter() throws {
        let accepted = try StoryIntake.accept(try TwineSamples.html("twine-sugarcube"), format: .twineHTML)
        #expect(accepted.id == "b3c9a2f4-7d1e-4a6b-8c05-9f3e1d2a7b68")
        #expect(accepted.needsInterpreter && accepted.twine?.format == .sugarcube)
        // Desk is only <<include>>d and StoryInit is never shown: neither is reported as unreachable.
        #expect(accepted.warnings == [])
        #expect(!accepted.story.chapters.contains { $0.id == "StoryInit" })
        #expect(throws: StoryError.self) { try StoryIntake.accept("<html>no story</html>", format: .twineHTML) }
    }
}

@Suite struct ScalarClassTests {
    /// The lexers' quick answers for ASCII must be Unicode's.
    @Test func theQuickAnswersAreUnicodes() {
        let scalars = (0...0x7F).compactMap(Unicode.Scalar.init) + ["é", "ß", "北", "Ж", "\u{A0}", "\u{85}", "\u{2003}", "١", "_", "😀"]
        for c in scalars {
            #expect(c.isAlphabetic == c.properties.isAlphabetic, "\(c.value)")
            #expect(c.isWhitespace == c.properties.isWhitespace, "\(c.value)")
        }
    }
}
