import ObliqueStrategies
import Testing

@Suite struct DeckFileTests {
    static let sample = """
        [strategies]
        Edition 1=
            Honour thy error as a hidden intention
            Use an old idea

        Edition 2=
            Honor thy error as a hidden intention
            Ask your body

        # A comment between sections.
        Extra=
            Look closely at the most embarrassing details
        """

    @Test func readsSectionsInOrderWithTheirCards() throws {
        let sections = try DeckFile.parse(Self.sample)
        #expect(sections.map(\.name) == ["Edition 1", "Edition 2", "Extra"])
        #expect(sections[0].cards == ["Honour thy error as a hidden intention", "Use an old idea"])
        #expect(sections.map(\.editionNumber) == [1, 2, nil])
    }

    @Test func acceptsWindowsLineEndingsAndAValueOnTheKeyLine() throws {
        let sections = try DeckFile.parse("[strategies]\r\nEdition 3=First card\r\n    Second card\r\n")
        #expect(sections == [DeckSection(name: "Edition 3", cards: ["First card", "Second card"])])
    }

    @Test(arguments: [
        ("Edition 1=\n    Card", DeckFile.ParseError.missingStrategiesSection),
        ("[strategies]\n", DeckFile.ParseError.noSections),
        ("[strategies]\nEdition 1=\nEdition 2=\n    Card", DeckFile.ParseError.emptySection("Edition 1")),
        ("[strategies]\n    orphan card", DeckFile.ParseError.unexpectedLine(number: 2, text: "    orphan card")),
        ("[strategies]\nEdition 1=\n    Card\nnot a key", DeckFile.ParseError.unexpectedLine(number: 4, text: "not a key")),
    ])
    func malformedFilesGiveAClearError(text: String, expected: DeckFile.ParseError) {
        #expect(throws: expected) { try DeckFile.parse(text) }
    }
}
