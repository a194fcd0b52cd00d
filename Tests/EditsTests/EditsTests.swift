import Edits
import Testing

@Suite struct EditsTests {
    @Test func aFieldTheEditLeftAloneKeepsWhatWasSavedMeanwhile() {
        #expect(edited("trial", base: "member", current: "member") == "trial")
        #expect(edited("member", base: "member", current: "staff") == "staff")
        // Both changed it: the edit wins, as the person saw and typed it.
        #expect(edited("trial", base: "member", current: "staff") == "trial")
    }

    @Test func aTextChangedOnlyHereOrOnlyThereTakesThatChange() {
        #expect(editedText("bridge", base: "river", current: "river", joinedBy: " · ") == "bridge")
        #expect(editedText("", base: "river", current: "river", joinedBy: " · ") == "")
        #expect(editedText("river", base: "river", current: "call Ann", joinedBy: " · ") == "call Ann")
        #expect(editedText("call Ann", base: "river", current: "call Ann", joinedBy: " · ") == "call Ann")
    }

    @Test func aTextChangedOnBothSidesKeepsBoth() {
        #expect(editedText("bridge", base: "river", current: "call Ann", joinedBy: " · ") == "call Ann · bridge")
        #expect(editedText("bridge", base: "", current: "call Ann", joinedBy: " · ") == "call Ann · bridge")
        // One holding the other is not written twice.
        #expect(editedText("call", base: "river", current: "call Ann", joinedBy: " · ") == "call Ann")
        #expect(editedText("call Ann at six", base: "river", current: "call Ann", joinedBy: " · ") == "call Ann at six")
        // Emptied on one side, changed on the other: the change stays.
        #expect(editedText("", base: "river", current: "call Ann", joinedBy: " · ") == "call Ann")
        #expect(editedText("bridge", base: "river", current: "", joinedBy: " · ") == "bridge")
    }

    @Test func anEditOfATextTheOtherSideWroteAroundTakesItsPlace() {
        // A line added on the tablet; the phone, still on "Knee", wrote "Knee: rest".
        #expect(editedText("Knee: rest", base: "Knee", current: "Knee\nBack pain", joinedBy: "\n") == "Knee: rest\nBack pain")
        #expect(editedText("", base: "Knee", current: "Knee\nBack pain", joinedBy: "\n") == "Back pain")
        #expect(editedText("", base: "bridge", current: "call Ann · bridge", joinedBy: " · ") == "call Ann")
        // The outbox sends a device's saves in order, each made on the one before: the second goes where the first
        // was kept, beside what another device wrote meanwhile, and is not joined to it a second time.
        let first = editedText("Knee", base: "", current: "Back pain", joinedBy: "\n")
        #expect(first == "Back pain\nKnee")
        #expect(editedText("Knee: rest", base: "Knee", current: first, joinedBy: "\n") == "Back pain\nKnee: rest")
        #expect(editedText("fern", base: "moss", current: "call Ann · moss", joinedBy: " · ") == "call Ann · fern")
        // A text found more than once cannot say which is the edit's, nor one that is only part of a line: both kept.
        #expect(editedText("b", base: "a", current: "a · a", joinedBy: " · ") == "a · a · b")
        #expect(editedText("Bring blocks", base: "Hips", current: "Hips, then twists", joinedBy: "\n") == "Hips, then twists\nBring blocks")
    }

    @Test func linesChangedOnOneSideOnlyTakeThatChange() {
        let base = "Warm room\nAna: knee\nBen late"
        // The tablet changed the first line, the phone the second and took the third away.
        #expect(
            editedText("Warm room\nAna: knee, rest", base: base, current: "Warm room, windows open\nAna: knee\nBen late", joinedBy: "\n")
                == "Warm room, windows open\nAna: knee, rest")
        // Lines added at the end on both sides: the ones already there first.
        #expect(editedText(base + "\nCy new", base: base, current: base + "\nDee back", joinedBy: "\n") == base + "\nDee back\nCy new")
        // The same line changed on both: both kept, in its place.
        #expect(
            editedText("Warm\nAna: knee\nBen late", base: base, current: "Cold\nAna: knee\nBen late", joinedBy: "\n")
                == "Cold\nWarm\nAna: knee\nBen late")
        // A line removed here and changed there keeps the change.
        #expect(
            editedText("Warm room\nBen late", base: base, current: "Warm room\nAna: knee!\nBen late", joinedBy: "\n")
                == "Warm room\nAna: knee!\nBen late")
    }

    @Test func textFitsItsLimitOrTheLongerTextItWasWrittenOver() {
        #expect(fits("abc", limit: 3, over: nil) && !fits("abcd", limit: 3, over: nil))
        #expect(fits("abcd", limit: 3, over: " abcde ") && !fits("abcdef", limit: 3, over: " abcde "))
    }
}
