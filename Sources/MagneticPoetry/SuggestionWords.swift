/// Which words the rhyme and alliteration helpers may suggest: helpers a teacher would hand to a child.
/// A suggestion must be a common word (the frequency list), an everyday one (a lower-case dictionary entry:
/// not a name, a brand or a newer slang word) and not on the project's own short list of profanity, slurs and
/// drugs that an old dictionary still holds.
public enum SuggestionWords {
    public static let blocked: Set<String> = [
        "arse", "ass", "bastard", "bitch", "bugger", "cock", "coon", "crap", "damn", "dick", "dyke", "fag", "faggot", "gook", "kike",
        "nigger", "piss", "prick", "pussy", "rape", "retard", "slut", "spastic", "spic", "twat", "whore", "wop",
        "amphetamine", "cocaine", "hashish", "heroin", "laudanum", "marijuana", "mescaline", "morphine", "narcotic", "opiate",
        "opium", "peyote",
    ]

    /// The frequency ranks of the words that may be suggested; `everyday` nil keeps every common word but the blocked.
    public static func suggestable(_ ranks: [String: Int], everyday: Set<String>?) -> [String: Int] {
        ranks.filter { word, _ in
            !blocked.contains(word) && (everyday?.contains(word) ?? true)
        }
    }
}
