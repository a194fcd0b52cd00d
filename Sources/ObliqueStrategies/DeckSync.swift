/// Plans how a newer deck file updates the stored cards of one edition in place, so ids (and with them
/// favourites, history and permalinks) survive: a card whose text is unchanged keeps its id even if it moved;
/// a card reworded (most of its words kept) or, failing that, a changed text at the same position is updated;
/// cards no longer in the file are retired, not deleted.
public struct DeckSync {
    public struct StoredCard: Sendable, Equatable {
        public let id: Int
        public let cardNumber: Int
        public let text: String
        public let retired: Bool

        public init(id: Int, cardNumber: Int, text: String, retired: Bool) {
            self.id = id
            self.cardNumber = cardNumber
            self.text = text
            self.retired = retired
        }
    }

    public struct Plan: Sendable, Equatable {
        public var inserts: [(cardNumber: Int, text: String)] = []
        public var updates: [(id: Int, cardNumber: Int, text: String)] = []
        public var retire: [Int] = []
        public var unchanged = 0

        public static func == (lhs: Plan, rhs: Plan) -> Bool {
            lhs.inserts.elementsEqual(rhs.inserts) { $0 == $1 }
                && lhs.updates.elementsEqual(rhs.updates) { $0 == $1 }
                && lhs.retire == rhs.retire && lhs.unchanged == rhs.unchanged
        }

        public var changesAnything: Bool { !inserts.isEmpty || !updates.isEmpty || !retire.isEmpty }
    }

    public static func plan(stored: [StoredCard], incoming: [String]) -> Plan {
        var plan = Plan()
        var unmatched = stored
        var pending: [(cardNumber: Int, text: String)] = []
        // Pass 1: the same text keeps its card, wherever it moved.
        for (offset, text) in incoming.enumerated() {
            let number = offset + 1
            if let index = unmatched.firstIndex(where: { $0.text == text }) {
                let card = unmatched.remove(at: index)
                if card.cardNumber == number && !card.retired {
                    plan.unchanged += 1
                } else {
                    plan.updates.append((card.id, number, text))
                }
            } else {
                pending.append((number, text))
            }
        }
        // Pass 2: a reworded card is an edit of the leftover card it shares most words with.
        var unpaired: [(cardNumber: Int, text: String)] = []
        for item in pending {
            let scored = unmatched.enumerated().map { ($0.offset, EditionComparison.similarity(item.text, $0.element.text)) }
            if let best = scored.max(by: { $0.1 < $1.1 }), best.1 >= 0.5 {
                let card = unmatched.remove(at: best.0)
                plan.updates.append((card.id, item.cardNumber, item.text))
            } else {
                unpaired.append(item)
            }
        }
        // Pass 3: a changed text at a position a leftover card held is an edit of that card.
        for item in unpaired {
            if let index = unmatched.firstIndex(where: { $0.cardNumber == item.cardNumber }) {
                let card = unmatched.remove(at: index)
                plan.updates.append((card.id, item.cardNumber, item.text))
            } else {
                plan.inserts.append(item)
            }
        }
        plan.retire = unmatched.filter { !$0.retired }.map(\.id)
        return plan
    }
}
