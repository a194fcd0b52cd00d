import ObliqueStrategies
import Testing

@Suite struct DeckSyncTests {
    typealias Stored = DeckSync.StoredCard

    @Test func anEmptyEditionInsertsEveryCardNumberedInOrder() {
        let plan = DeckSync.plan(stored: [], incoming: ["A", "B"])
        #expect(plan.inserts.map(\.cardNumber) == [1, 2])
        #expect(plan.inserts.map(\.text) == ["A", "B"])
        #expect(plan.updates.isEmpty && plan.retire.isEmpty)
    }

    @Test func theSameFileTwiceChangesNothing() {
        let stored = [Stored(id: 10, cardNumber: 1, text: "A", retired: false), Stored(id: 11, cardNumber: 2, text: "B", retired: false)]
        let plan = DeckSync.plan(stored: stored, incoming: ["A", "B"])
        #expect(!plan.changesAnything)
        #expect(plan.unchanged == 2)
    }

    @Test func aNewerFileKeepsIDsOfMovedAndEditedCardsAndRetiresTheRest() {
        let stored = [
            Stored(id: 10, cardNumber: 1, text: "A", retired: false),
            Stored(id: 11, cardNumber: 2, text: "B", retired: false),
            Stored(id: 12, cardNumber: 3, text: "C", retired: false),
            Stored(id: 13, cardNumber: 4, text: "D", retired: false),
        ]
        // A new card comes first, A moves down, B is gone, C is reworded in place.
        let plan = DeckSync.plan(stored: stored, incoming: ["New", "A", "C, revised", "D"])
        #expect(plan.unchanged == 1)  // D
        // A moved from 1 to 2; at 3, "C, revised" takes C's place (same position), keeping id 12.
        #expect(plan.updates.contains { $0 == (10, 2, "A") })
        #expect(plan.updates.contains { $0 == (12, 3, "C, revised") })
        #expect(plan.inserts.map(\.text) == ["New"])
        #expect(plan.retire == [11])
    }

    @Test func aRetiredCardThatReturnsIsRevived() {
        let stored = [Stored(id: 10, cardNumber: 1, text: "A", retired: true)]
        let plan = DeckSync.plan(stored: stored, incoming: ["A"])
        #expect(plan.updates.count == 1 && plan.updates[0].id == 10)
        #expect(plan.retire.isEmpty)
    }
}
