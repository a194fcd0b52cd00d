/// Sounds of words from the CMU Pronouncing Dictionary: rhymes, alliteration and syllables.
///
/// A pronunciation is ARPAbet phones such as `K AE1 T`; vowels carry a stress digit (0, 1, 2).
public struct Pronunciation: Sendable, Equatable {
    public let word: String
    public let phones: [String]

    public init(word: String, phones: [String]) {
        self.word = word
        self.phones = phones
    }

    public var syllables: Int { phones.filter { $0.last?.isNumber == true }.count }

    /// The phones from the last stressed vowel to the end: words sharing it rhyme ("cat", "hat").
    public var rhymeKey: String {
        let lastStressed =
            phones.lastIndex { $0.hasSuffix("1") || $0.hasSuffix("2") }
            ?? phones.lastIndex { $0.last?.isNumber == true }
        guard let start = lastStressed else { return phones.joined(separator: " ") }
        return phones[start...].map { $0.filter { !$0.isNumber } }.joined(separator: " ")
    }

    /// Near rhymes ("love" with "enough", "was"): the rhyme key with its last consonant swapped for a kindred one,
    /// of the same manner (stops, fricatives, nasals, liquids). Empty when the key ends in a vowel.
    public static func nearRhymeKeys(of key: String) -> [String] {
        var phones = key.split(separator: " ").map(String.init)
        guard let last = phones.last, let kin = kindred.first(where: { $0.contains(last) }) else { return [] }
        phones.removeLast()
        let stem = phones.joined(separator: " ")
        return kin.filter { $0 != last }.sorted().map { stem.isEmpty ? $0 : "\(stem) \($0)" }
    }

    static let kindred: [Set<String>] = [
        ["P", "B", "T", "D", "K", "G"], ["F", "V", "TH", "DH", "S", "Z", "SH", "ZH"], ["M", "N", "NG"], ["L", "R"], ["CH", "JH"],
    ]

    /// The first sound, without stress: words sharing it alliterate.
    public var firstSound: String { phones.first.map { $0.filter { !$0.isNumber } } ?? "" }
}

/// Reads `cmudict.dict`: `word PH1 PH2 …` per line, `word(2)` for alternates, `#` comments.
public enum PronouncingDictionary {
    /// Plain lower-case words only (no apostrophes, digits or dots), first pronunciation of each.
    public static func parse(_ text: String) -> [Pronunciation] {
        var result: [Pronunciation] = []
        var seen: Set<String> = []
        for line in text.split(whereSeparator: \.isNewline) {
            let content = line.split(separator: "#", maxSplits: 1).first ?? ""
            let parts = content.split(separator: " ")
            guard parts.count >= 2 else { continue }
            let word = String(parts[0])
            guard !word.contains("("), word.count >= 1, word.allSatisfy({ $0 >= "a" && $0 <= "z" }) else { continue }
            guard seen.insert(word).inserted else { continue }
            result.append(Pronunciation(word: word, phones: parts.dropFirst().map(String.init)))
        }
        return result
    }
}
