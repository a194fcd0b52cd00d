import ObliqueStrategies
import Testing

@Suite struct CardTextTests {
    @Test func ownCardsAreTrimmedAndHoldOneTo280Characters() throws {
        #expect(try CardText.ownCard("  Trust the accident \n") == "Trust the accident")
        #expect(throws: StrategyError.self) { try CardText.ownCard("   ") }
        _ = try CardText.ownCard(String(repeating: "é", count: 280))
        #expect(throws: StrategyError.self) { try CardText.ownCard(String(repeating: "a", count: 281)) }
    }

    @Test func searchIgnoresCaseAndAccents() {
        let cards = [
            StrategyCard(id: 1, edition: 1, cardNumber: 1, text: "Émphasize the flaws"),
            StrategyCard(id: 2, edition: 1, cardNumber: 2, text: "Use an old idea"),
        ]
        #expect(CardText.search(cards, for: "EMPHA").map(\.id) == [1])
        #expect(CardText.search(cards, for: "flaws").map(\.id) == [1])
        #expect(CardText.search(cards, for: "  ").count == 2)
        #expect(CardText.search(cards, for: "nothing").isEmpty)
    }

    @Test func notesAreOptionalAndBounded() throws {
        #expect(try CardText.note(nil) == nil)
        #expect(try CardText.note("  ") == nil)
        #expect(try CardText.note(" used it on the bridge ") == "used it on the bridge")
        #expect(throws: StrategyError.self) { try CardText.note(String(repeating: "n", count: 501)) }
        // Written over two devices' notes kept together (longer than 500), a note may be as long as they are.
        let kept = String(repeating: "a", count: 300) + " · " + String(repeating: "b", count: 300)
        #expect(try CardText.note(String(kept.dropLast()), over: kept) == String(kept.dropLast()))
        #expect(throws: StrategyError.self) { try CardText.note(kept + "!", over: kept) }
    }

    @Test func aNoteChangedElsewhereMeanwhileIsKeptBesideTheOneSent() {
        // Nothing changed since the device read the note: what it sends is the note, removal included.
        #expect(CardText.note(sent: "bridge", over: "river", current: "river") == "bridge")
        #expect(CardText.note(sent: nil, over: "river", current: "river") == nil)
        #expect(CardText.note(sent: "bridge", over: nil, current: nil) == "bridge")
        // Changed elsewhere meanwhile: both are kept, the one already there first.
        #expect(CardText.note(sent: "bridge", over: "river", current: "call Ann") == "call Ann · bridge")
        #expect(CardText.note(sent: "bridge", over: nil, current: "call Ann") == "call Ann · bridge")
        // The same text, or one holding the other, is not written twice.
        #expect(CardText.note(sent: "call Ann", over: "river", current: "call Ann") == "call Ann")
        #expect(CardText.note(sent: "call", over: "river", current: "call Ann") == "call Ann")
        #expect(CardText.note(sent: "call Ann at six", over: "river", current: "call Ann") == "call Ann at six")
        // Removed on one side, changed on the other: the change stays.
        #expect(CardText.note(sent: nil, over: "river", current: "call Ann") == "call Ann")
        #expect(CardText.note(sent: "bridge", over: "river", current: nil) == "bridge")
    }
}

@Suite struct EditionComparisonTests {
    let deck = [
        StrategyCard(id: 1, edition: 1, cardNumber: 1, text: "Honour thy error as a hidden intention"),
        StrategyCard(id: 2, edition: 2, cardNumber: 5, text: "Honor thy error as a hidden intention"),
        StrategyCard(id: 3, edition: 3, cardNumber: 9, text: "Use an old idea"),
        StrategyCard(id: 4, edition: 0, cardNumber: 1, text: "Honour thy error as a hidden intention"),
    ]

    @Test func findsTheSameStrategyInOtherPublishedEditionsOnly() {
        #expect(EditionComparison.counterparts(of: deck[0], in: deck).map(\.id) == [2])
        #expect(EditionComparison.counterparts(of: deck[2], in: deck).isEmpty)
    }

    @Test func showsTheWordsThatDiffer() {
        let parts = EditionComparison.diff(from: deck[0].text, to: deck[1].text)
        #expect(parts.first == .init(text: "Honor", kind: .added) || parts.first == .init(text: "Honour", kind: .removed))
        #expect(parts.contains(.init(text: "Honour", kind: .removed)))
        #expect(parts.contains(.init(text: "Honor", kind: .added)))
        #expect(parts.last == .init(text: "thy error as a hidden intention", kind: .same))
    }
}
