import MagneticPoetry
import Testing

@Suite struct SuggestionWordsTests {
    let ranks = ["night": 1, "light": 2, "knight": 9, "zuckerberg": 5, "xanax": 7, "paris": 3, "cocaine": 8, "bitch": 4]
    /// Lower-case dictionary entries, as scripts/make-everyday-words.py writes them: no names, no brands.
    let everyday: Set<String> = ["night", "light", "knight", "cocaine", "bitch"]

    @Test func suggestionsAreEverydayWordsAndNeverBlockedOnes() {
        let kept = SuggestionWords.suggestable(ranks, everyday: everyday)
        #expect(kept == ["night": 1, "light": 2, "knight": 9])
    }

    @Test func withoutADictionaryOnlyTheBlockedWordsGo() {
        let kept = SuggestionWords.suggestable(ranks, everyday: nil)
        #expect(Set(kept.keys) == ["night", "light", "knight", "zuckerberg", "xanax", "paris"])
    }
}
