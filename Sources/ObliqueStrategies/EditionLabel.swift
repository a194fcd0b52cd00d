/// How an edition of the deck is named to people: "Edition 2" is "2nd edition (1978)".
///
/// The years are those of Eno and Schmidt's printed editions; an extra section keeps its own name.
public enum EditionLabel {
    public static let years: [Int: Int] = [1: 1975, 2: 1978, 3: 1979, 4: 1996, 5: 2001]

    public static func label(edition: Int, name: String) -> String {
        guard DeckSection(name: name, cards: []).editionNumber == edition else { return name }
        let ordinal = ordinal(edition)
        guard let year = years[edition] else { return "\(ordinal) edition" }
        return "\(ordinal) edition (\(year))"
    }

    static func ordinal(_ number: Int) -> String {
        let suffix: String
        switch (number % 10, number % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }
}
