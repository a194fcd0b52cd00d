import Foundation

/// The form names are compared in: lower case, accents and punctuation gone, single spaces.
/// "Sant Julià de Lòria" → "sant julia de loria", "Saint-Étienne" → "saint etienne", "Łódź" → "lodz".
public enum SearchKey {
    /// Letters that carry no combining accent to strip, so folding leaves them: spelled as people type them.
    private static let letterReplacements: [Character: String] = [
        "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ß": "ss", "ı": "i", "ħ": "h",
    ]

    public static func normalize(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
        var result = ""
        result.reserveCapacity(folded.utf8.count)
        var pendingSpace = false
        for character in folded {
            if let replacement = letterReplacements[character] {
                if pendingSpace, !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result += replacement
            } else if character.isLetter || character.isNumber {
                if pendingSpace, !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(character)
            } else if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .nonspacingMark }) {
                continue
            } else {
                pendingSpace = true
            }
        }
        return result
    }

    /// A city's keys: its own name's first, then each distinct alternate name's.
    public static func keys(name: String, alternateNames: [String]) -> [String] {
        keyedNames(name: name, alternateNames: alternateNames).keys
    }

    /// The keys with, for each, the name as written that gave it (the first one, when several fold alike).
    public static func keyedNames(name: String, alternateNames: [String]) -> (keys: [String], spellings: [String]) {
        let own = normalize(name)
        var seen: Set<String> = [own]
        var keys = [own], spellings = [name]
        for alternate in alternateNames {
            let key = normalize(alternate)
            if !key.isEmpty, key.count <= 100, seen.insert(key).inserted {
                keys.append(key)
                spellings.append(alternate)
            }
        }
        return (keys, spellings)
    }

    /// Which of a city's spellings a match on `key` (a key or a word tail of one) came from.
    public static func spelling(matching key: String, keys: [String], spellings: [String]) -> String? {
        zip(keys, spellings).first { $0.0 == key || $0.0.hasSuffix(" " + key) }?.1
    }

    /// The key and every tail of it that starts a word: "san jose del monte" → also "jose del monte",
    /// "del monte", "monte". Searching prefixes of these finds a name by any of its words.
    public static func wordTails(of key: String) -> [Substring] {
        var tails: [Substring] = [key[...]]
        var index = key.startIndex
        while let space = key[index...].firstIndex(of: " ") {
            index = key.index(after: space)
            if index < key.endIndex { tails.append(key[index...]) }
        }
        return tails
    }
}
