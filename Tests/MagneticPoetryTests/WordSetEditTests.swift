import MagneticPoetry
import Testing

@Suite struct WordSetEditTests {
    let opened = (name: "Kitchen", words: ["spoon", "fork", "pan"])

    func stored(_ name: String, _ words: [String]) -> WordSet { WordSet(id: "s1", name: name, builtIn: false, words: words) }

    @Test func anEditOfASetNobodyChangedMeanwhileIsTakenAsItIs() {
        let edit = WordSet.edited(
            name: "Cutlery", words: ["spoon", "pan", "knife"], base: opened, current: stored("Kitchen", opened.words))
        #expect(edit.name == "Cutlery" && edit.words == ["spoon", "pan", "knife"])
    }

    @Test func wordsAddedAndRemovedOnTwoDevicesAreAllKept() {
        // Elsewhere: "fork" removed, "whisk" added. Here: "knife" added, "pan" removed.
        let edit = WordSet.edited(
            name: "Kitchen", words: ["spoon", "fork", "knife"], base: opened, current: stored("Kitchen", ["spoon", "pan", "whisk"]))
        #expect(edit.words == ["spoon", "whisk", "knife"])
    }

    @Test func aRenameElsewhereStaysUnlessThisEditRenamedToo() {
        let current = stored("Cooking", opened.words)
        #expect(WordSet.edited(name: "Kitchen", words: opened.words + ["lid"], base: opened, current: current).name == "Cooking")
        #expect(WordSet.edited(name: "Pots", words: opened.words, base: opened, current: current).name == "Pots")
    }

    @Test func aWordAddedOnBothDevicesIsThereOnceIgnoringCase() {
        let edit = WordSet.edited(
            name: "Kitchen", words: opened.words + ["Lid"], base: opened, current: stored("Kitchen", opened.words + ["lid"]))
        #expect(edit.words == ["spoon", "fork", "pan", "lid"])
    }
}
