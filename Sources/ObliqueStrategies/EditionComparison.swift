/// Finds the same strategy in other editions and shows how its wording differs, word by word.
public enum EditionComparison {
    public struct Part: Sendable, Equatable {
        public enum Kind: String, Sendable { case same, added, removed }
        public let text: String
        public let kind: Kind

        public init(text: String, kind: Kind) {
            self.text = text
            self.kind = kind
        }
    }

    /// Cards of other published editions that hold the same strategy as `card`: the same words after folding
    /// case, accents and punctuation, or at least 60% of their words in common.
    public static func counterparts(of card: StrategyCard, in deck: [StrategyCard]) -> [StrategyCard] {
        deck.filter { other in
            guard other.id != card.id, other.edition != card.edition, !other.isOwn else { return false }
            return similarity(card.text, other.text) >= 0.6
        }
        .sorted { ($0.edition, $0.cardNumber) < ($1.edition, $1.cardNumber) }
    }

    /// How `other` reads against `base`: words kept, added in `other`, removed from `base` (longest common subsequence).
    public static func diff(from base: String, to other: String) -> [Part] {
        let a = base.split(whereSeparator: \.isWhitespace).map(String.init)
        let b = other.split(whereSeparator: \.isWhitespace).map(String.init)
        let keyA = a.map(CardText.folded)
        let keyB = b.map(CardText.folded)
        var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = keyA[i] == keyB[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var parts: [Part] = []
        var i = 0
        var j = 0
        func append(_ word: String, _ kind: Part.Kind) {
            if let last = parts.last, last.kind == kind {
                parts[parts.count - 1] = Part(text: last.text + " " + word, kind: kind)
            } else {
                parts.append(Part(text: word, kind: kind))
            }
        }
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, keyA[i] == keyB[j] {
                append(b[j], .same)
                i += 1
                j += 1
            } else if j < b.count, i == a.count || lengths[i][j + 1] >= lengths[i + 1][j] {
                append(b[j], .added)
                j += 1
            } else {
                append(a[i], .removed)
                i += 1
            }
        }
        return parts
    }

    /// The share of distinct words two texts have in common (Jaccard index), ignoring case, accents and punctuation.
    public static func similarity(_ a: String, _ b: String) -> Double {
        let wordsA = Set(normalisedWords(a))
        let wordsB = Set(normalisedWords(b))
        let union = wordsA.union(wordsB)
        guard !union.isEmpty else { return 0 }
        return Double(wordsA.intersection(wordsB).count) / Double(union.count)
    }

    static func normalisedWords(_ text: String) -> [String] {
        CardText.folded(text).split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }
}
