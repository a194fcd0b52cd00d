import Foundation

/// The form names are compared in: lower case, accents and punctuation gone, single spaces.
/// "Sant Julià de Lòria" → "sant julia de loria", "Saint-Étienne" → "saint etienne", "Łódź" → "lodz".
public enum SearchKey {
    /// Letters that carry no combining accent to strip, so folding leaves them: spelled as people type them.
    private static let letterReplacements: [Character: String] = [
        "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ß": "ss", "ı": "i", "ħ": "h",
    ]

    public static func normalize(_ text: String) -> String {
        if let ascii = normalizeASCII(text) { return ascii }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
        var result = ""
        result.reserveCapacity(folded.utf8.count)
        var pendingSpace = false
        var inWord = false
        for scalar in folded.unicodeScalars {
            if let replacement = scalarReplacements[scalar] {
                if pendingSpace, !result.isEmpty { result.append(" ") }
                pendingSpace = false
                inWord = true
                result += replacement
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if pendingSpace, !result.isEmpty { result.append(" ") }
                pendingSpace = false
                inWord = true
                result.unicodeScalars.append(scalar)
            } else if scalar.properties.generalCategory == .format {
                // Invisible joiners (the Persian half-space) are typed or not: leave them out.
                continue
            } else if isMark(scalar) {
                // A mark belongs to the letter before it (a vowel sign in Devanagari); alone it is dropped.
                if inWord, !pendingSpace { result.unicodeScalars.append(scalar) }
            } else {
                pendingSpace = true
                inWord = false
            }
        }
        return result
    }

    private static let scalarReplacements: [Unicode.Scalar: String] = Dictionary(
        uniqueKeysWithValues: letterReplacements.map { ($0.key.unicodeScalars.first!, $0.value) }
    )

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// Most names (two in three of GeoNames') are ASCII: lower-cased letters and digits, anything else a
    /// single space, without Foundation's folding. Nil when the text is not ASCII.
    private static func normalizeASCII(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var result = [UInt8]()
            result.reserveCapacity(bytes.count)
            var pendingSpace = false
            for byte in bytes {
                if byte >= 0x80 { return nil }
                let lower = byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0)
                if (lower >= 0x61 && lower <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                    if pendingSpace, !result.isEmpty { result.append(0x20) }
                    pendingSpace = false
                    result.append(lower)
                } else {
                    pendingSpace = true
                }
            }
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// A city's keys (its own name's first, then each distinct alternate name's) with, for each, the name as
    /// written that gave it (the first one, when several fold alike).
    public static func keyedNames(name: String, alternateNames: [String]) -> (keys: [String], spellings: [String]) {
        let own = normalize(name)
        var seen: Set<String> = [own]
        var keys = [own]
        var spellings = [name]
        for alternate in alternateNames {
            let key = normalize(alternate)
            if !key.isEmpty, key.utf8.count <= 100 || key.count <= 100, seen.insert(key).inserted {
                keys.append(key)
                spellings.append(alternate)
            }
        }
        return (keys, spellings)
    }

    /// The name at `position` (0 the city's own) of a city's names as stored, joined with tabs; read without
    /// splitting the list (a large city has hundreds of names).
    public static func spelling(at position: Int, joinedSpellings: String) -> String? {
        guard position >= 0 else { return nil }
        var spellings = joinedSpellings
        return spellings.withUTF8 { bytes -> String? in
            var start = 0
            var field = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\t") { end += 1 }
                if field == position { return String(decoding: bytes[start..<end], as: UTF8.self) }
                start = end + 1
                field += 1
            }
            return nil
        }
    }

    /// How an alternate name as written follows from its key, when it does. Of GeoNames' 853,000 alternate names
    /// (cities500) 62% are their key capitalized ("Firenze" from "firenze") and 18% the key itself, so a city search
    /// shows most of the names it matched without reading them from the database (`NameIndex` keeps the rule).
    public enum Spelling: UInt8, Sendable {
        /// Only the database has it.
        case stored = 0
        /// The key itself.
        case key = 1
        /// The key with the first letter of each word in capitals.
        case capitalized = 2
        /// The key in capitals, two to four letters: an airport's or a city's code ("FIH" for Kinshasa, "NYC", "LA"),
        /// which a search matches only when it is typed whole: as a name begun, "fi" offered Kinshasa first.
        case code = 3
    }

    /// Which rule gives `spelling` (its UTF-8) from `key`, byte for byte.
    public static func spellingRule(key: String, spelling: some Collection<UInt8>) -> Spelling {
        if key.utf8.elementsEqual(spelling) { return .key }
        if key.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII, most keys, compared in place: a catalog build checks 853,000 names.
            guard key.utf8.count == spelling.count else { return .stored }
            if (2...4).contains(spelling.count),
                zip(key.utf8, spelling).allSatisfy({ letter, written in letter >= 0x61 && letter <= 0x7A && written == letter - 0x20 })
            {
                return .code
            }
            var startOfWord = true
            for (letter, written) in zip(key.utf8, spelling) {
                guard written == capital(letter, startOfWord: startOfWord) else { return .stored }
                startOfWord = letter == UInt8(ascii: " ")
            }
            return .capitalized
        }
        return capitalized(key).utf8.elementsEqual(spelling) ? .capitalized : .stored
    }

    /// Each alternate's rule, one for each key after the city's own: `joinedSpellings` holds the city's names as
    /// written, joined with tabs, in the order of `keys` (as `keyedNames` gives them and the database stores
    /// them); `.stored` where one is missing. Read in place: no name is copied.
    public static func spellingRules(keys: [String], joinedSpellings: String) -> [Spelling] {
        guard keys.count > 1 else { return [] }
        var joined = joinedSpellings
        var rules: [Spelling] = []
        rules.reserveCapacity(keys.count - 1)
        joined.withUTF8 { bytes in
            var start = 0
            var field = 0
            while start <= bytes.count, field < keys.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\t") { end += 1 }
                if field > 0 { rules.append(spellingRule(key: keys[field], spelling: UnsafeBufferPointer(rebasing: bytes[start..<end]))) }
                start = end + 1
                field += 1
            }
        }
        while rules.count < keys.count - 1 { rules.append(.stored) }
        return rules
    }

    /// The name as written, when `rule` gives it.
    public static func spelling(ofKey key: String, by rule: Spelling) -> String? {
        switch rule {
        case .stored: nil
        case .key: key
        case .capitalized: capitalized(key)
        case .code: key.uppercased()
        }
    }

    private static func capitalized(_ key: String) -> String {
        if key.utf8.allSatisfy({ $0 < 0x80 }) {
            var startOfWord = true
            return String(
                decoding: key.utf8.map { letter in
                    defer { startOfWord = letter == UInt8(ascii: " ") }
                    return capital(letter, startOfWord: startOfWord)
                }, as: UTF8.self)
        }
        // By scalar (a key's words start with a letter; the marks after it stay as they are): by Character it took
        // four times as long.
        var result = ""
        result.reserveCapacity(key.utf8.count)
        var startOfWord = true
        for scalar in key.unicodeScalars {
            if startOfWord { result += scalar.properties.uppercaseMapping } else { result.unicodeScalars.append(scalar) }
            startOfWord = scalar == " "
        }
        return result
    }

    /// An ASCII letter of a key as `capitalized` writes it.
    private static func capital(_ letter: UInt8, startOfWord: Bool) -> UInt8 {
        startOfWord && letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z") ? letter - 0x20 : letter
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
