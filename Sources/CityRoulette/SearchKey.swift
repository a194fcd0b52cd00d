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

    /// A city's keys: its own name's first, then each distinct alternate name's.
    public static func keys(name: String, alternateNames: [String]) -> [String] {
        keyedNames(name: name, alternateNames: alternateNames).keys
    }

    /// The keys with, for each, the name as written that gave it (the first one, when several fold alike).
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
