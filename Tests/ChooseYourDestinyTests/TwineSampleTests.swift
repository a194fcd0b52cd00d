import Foundation
import Testing

@testable import ChooseYourDestiny

/// The two sample stories the project ships (samples/stories/twine-*), each with an ending that depends on a
/// variable set earlier, played as a reader would.
@Suite struct TwineSampleTests {
    static func harlowe() throws -> TwineInterpreter { TwineInterpreter(try TwineSamples.story("twine-harlowe")) }
    static func sugarCube() throws -> TwineInterpreter { TwineInterpreter(try TwineSamples.story("twine-sugarcube")) }

    @Test func theHarloweSampleIsReadFromItsPublishedFile() throws {
        let story = try TwineSamples.story("twine-harlowe")
        #expect(story.name == "The Night Ferry" && story.format == .harlowe && story.formatVersion == "3.3.8" && story.start == "Dock")
        let imported = story.troveStory()
        #expect(imported.needsInterpreter)
        #expect(imported.warnings.isEmpty)
        // Links inside macros count: every passage but the (display:)ed clock is reachable from the start.
        let reachable = StoryValidation.reachable(from: "Dock", in: imported.story)
        #expect(Set(imported.story.chapters.map(\.id)).subtracting(reachable) == ["Clock"])
        #expect(story.includedPassages() == ["Clock"])
        #expect(imported.story.chapter(id: "Crossing")?.choices.map(\.chapterID) == ["Adrift"])
        // The crossing ends the story with the lantern and sends the reader adrift without it: three endings.
        #expect(imported.story.chapters.filter(\.canEnd).map(\.id) == ["Clock", "Crossing", "Adrift", "Morning"])
        #expect(imported.story.chapters.filter(\.endsOnSomePaths).map(\.id) == ["Crossing"])
        // The flag survives the story's file.
        let written = try StoryFile.read(StoryFile.write(imported.story))
        #expect(written.chapter(id: "Crossing")?.canEnd == true && written.chapter(id: "Dock Again")?.canEnd == false)
    }

    /// A Twine file has no summary: the catalog card shows the opening as the reader first sees it, variables said.
    @Test func aTwineStorysSummaryIsItsOpening() throws {
        let ferry = try TwineSamples.story("twine-harlowe").troveStory().story
        #expect(ferry.summary == "The last ferry leaves at midnight. The ferryman takes three coins for the crossing; you have 2.")
        #expect(try !TwineSamples.story("twine-sugarcube").troveStory().story.summary.isEmpty)
        let long = String(repeating: "word ", count: 60)
        #expect(TwineStory.summary(opening: ["One. Two is here.", long]) == "One. Two is here.")
        #expect(TwineStory.summary(opening: [long]) == String(repeating: "word ", count: 40).dropLast() + "…")
        #expect(TwineStory.summary(opening: []) == "")
    }

    @Test func theHarloweFerryTakesTheReaderHomeOnlyWithTheLantern() throws {
        let story = try Self.harlowe()
        let home = try story.walk([
            "Search the warehouse", "Take the old lantern from its hook", "Search the warehouse again",
            "Pick up the coin glinting on the floor", "Pay the ferryman",
        ]).passage
        #expect(home.passage == "Crossing" && home.isEnding)
        #expect(home.text.contains("**You are home.**"))
        #expect(home.state.variables["lantern"] == .bool(true) && home.state.variables["coins"] == .number(3))

        let lost = try story.walk(["Search the warehouse", "Pick up the coin glinting on the floor", "Pay the ferryman"]).passage
        #expect(lost.passage == "Adrift" && lost.isEnding && lost.text.contains("*cold and lost*"))
        #expect(lost.state.history.suffix(2) == ["Crossing", "Adrift"])
    }

    @Test func theHarloweSampleShowsWhatTheVariablesSay() throws {
        let story = try Self.harlowe()
        let start = story.start().passage
        #expect(start.paragraphs == ["The last ferry leaves at midnight. The ferryman takes **three** coins for the crossing; you have 2."])
        let pier = try story.walk(["Sit on the pier and wait"]).passage
        #expect(pier.text.contains("you have 1 left"))
        let warehouse = try story.walk(["Sit on the pier and wait", "Back to the warehouse"]).passage
        #expect(warehouse.text == "Crates, rope and a smell of tar. You come back from the pier with the gulls still shrieking.")
        let poor = try story.walk(["Search the warehouse", "Go back out"]).passage
        #expect(
            poor.paragraphs == [
                "Somewhere a church clock strikes. It is very dark.\nYou have 2 coins.", "The ferryman shakes his head: 2 is not enough.",
            ])
        #expect(!poor.choices.contains { $0.text == "Pay the ferryman" })
        let one = try story.walk(["Sit on the pier and wait", "Back to the warehouse", "Go back out"]).passage
        #expect(one.text.contains("You have 1 coin."))
    }

    @Test func rewindingTheFerryRestoresTheLantern() throws {
        let story = try Self.harlowe()
        let (reading, lit) = try story.walk(["Search the warehouse", "Take the old lantern from its hook"])
        #expect(lit.state.variables["lantern"] == .bool(true))
        let (rewound, warehouse) = try story.rewind(reading, to: 1)
        #expect(warehouse.passage == "Warehouse" && warehouse.state.variables["lantern"] == .bool(false))
        #expect(warehouse.choices.contains { $0.text == "Take the old lantern from its hook" })
        #expect(rewound.choices.count == 1)
    }

    @Test func theSugarCubeSampleIsReadFromItsPublishedFile() throws {
        let story = try TwineSamples.story("twine-sugarcube")
        #expect(story.name == "The Locked Study" && story.format == .sugarcube && story.start == "Hall")
        let imported = story.troveStory()
        #expect(imported.needsInterpreter && imported.warnings.isEmpty)
        #expect(imported.story.chapters.map(\.id) == ["Hall", "Library", "Study Door", "Study", "Desk", "Lighthouse"])
        #expect(imported.story.chapter(id: "Hall")?.choices.map(\.chapterID) == ["Library", "Study Door"])
        #expect(imported.story.chapter(id: "Study Door")?.choices.map(\.chapterID) == ["Study", "Hall"])
        #expect(imported.story.chapter(id: "Study")?.choices.map(\.chapterID) == ["Lighthouse"])
        // The study ends the story without two clues; the door's if and else both lead on, the library's
        // return link always shows.
        #expect(imported.story.chapters.filter(\.canEnd).map(\.id) == ["Study", "Desk", "Lighthouse"])
    }

    @Test func aPassageEndsOnSomePathsOnlyWhenSomeBranchOffersNoWayOn() throws {
        func endsSometimes(_ text: String, harlowe: Bool = true) throws -> Bool {
            let twee = """
                :: StoryTitle
                T

                :: StoryData
                {"ifid": "3F1A1E1C-0000-4000-8000-000000000001", "format": "\(harlowe ? "Harlowe" : "SugarCube")", "start": "A"}

                :: A
                (set: $x to 1)<<set $x to 1>>
                \(text)

                :: B
                The end.
                """
            let imported = try TwineStory.read(twee: twee).troveStory()
            return try #require(imported.story.chapter(id: "A")).endsOnSomePaths
        }
        #expect(try endsSometimes("(if: $x is 1)[[[B]]]"))
        #expect(try !endsSometimes("(if: $x is 1)[[[B]]](else:)[(goto: \"B\")]"))
        #expect(try endsSometimes("(if: $x is 1)[[[B]]](else-if: $x is 2)[(goto: \"B\")]"))
        #expect(try !endsSometimes("(if: $x)[(if: $y)[[[B]]](else:)[[[B]]]](else:)[[[B]]]"))
        #expect(try endsSometimes("(if: $x)[(if: $y)[[[B]]]](else:)[[[B]]]"))
        #expect(try !endsSometimes("(if: $x)[ ] [[B]]"))
        #expect(try endsSometimes("<<if $x>>[[B]]<</if>>", harlowe: false))
        #expect(try !endsSometimes("<<if $x>>[[B]]<<elseif $y>><<goto \"B\">><<else>><<back>><</if>>", harlowe: false))
        #expect(try endsSometimes("<<switch $x>><<case 1>>[[B]]<</switch>>", harlowe: false))
        #expect(try !endsSometimes("<<switch $x>><<case 1>>[[B]]<<default>>[[B]]<</switch>>", harlowe: false))
    }

    @Test func theSugarCubeStudyOpensOntoTheLighthouseOnlyWithTwoClues() throws {
        let story = try Self.sugarCube()
        let found = try story.walk(["Search the library", "Open the misplaced book", "Try the study door"]).passage
        #expect(found.passage == "Study" && found.state.variables["clues"] == .number(1))
        #expect(found.isEnding && found.text.contains("The end, for now."))
        #expect(
            found.paragraphs == [
                "The key from the book opens the study. On the desk lies a note in your aunt's hand.\nA note on the desk means nothing to you yet. You sit down to wait. The end, for now."
            ])

        let twice = try story.walk(["Search the library", "Open the misplaced book", "Search the library"]).passage
        #expect(twice.paragraphs[0] == "The shelves again, and the gap where the book was.\nYou have found 2 clues.")
        #expect(twice.choices.map(\.text) == ["Back to the hall"])
        let lighthouse = try story.walk([
            "Search the library", "Open the misplaced book", "Search the library", "Back to the hall", "Try the study door", "Follow them",
        ])
        #expect(lighthouse.passage.passage == "Lighthouse" && lighthouse.passage.isEnding)
        #expect(lighthouse.passage.state.variables["clues"] == .number(2))
    }

    @Test func theSugarCubeDoorCountsTriesInATemporaryVariable() throws {
        let story = try Self.sugarCube()
        let first = try story.walk(["Try the study door"]).passage
        #expect(first.text == "The door will not open. You have tried it 1 time.")
        let second = try story.walk(["Try the study door", "Back to the hall", "Try the study door"]).passage
        #expect(second.text == "The door will not open. You have tried it 2 times.")
        #expect(second.state.variables["tries"] == nil)
    }

    @Test func theSugarCubeBackLinkUndoesTheLastStep() throws {
        let story = try Self.sugarCube()
        let (atDoor, door) = try story.walk(["Search the library", "Back to the hall", "Try the study door"])
        #expect(door.state.variables["clues"] == .number(1) && door.state.history.last == "Study Door")
        let back = try #require(door.choices.firstIndex { $0.kind == .back })
        let (after, hall) = try story.choose(back, in: atDoor)
        #expect(hall.passage == "Hall" && hall.state.history == ["Hall", "Library", "Hall"] && after.choices.count == 2)
        // Undone, the try at the door never happened.
        let again = try story.choose(1, in: after).passage
        #expect(again.text == "The door will not open. You have tried it 1 time.")
    }
}
