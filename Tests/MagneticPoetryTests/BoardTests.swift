import Foundation
import MagneticPoetry
import Testing

@Suite struct BoardTests {
    let set = WordSet(id: "test", name: "Test", builtIn: false, words: ["moon", "sea", "🌙"])

    func board(_ magnets: [Board.Magnet], extra: [String] = []) -> Board {
        Board(wordSetId: "test", magnets: magnets, extraWords: extra)
    }

    @Test func acceptsWordsFromTheSetAndAddedWords() throws {
        let valid = board(
            [
                .init(id: "a", word: "moon", x: 0, y: 1), .init(id: "b", word: "🌙", x: 0.5, y: 0.5, rotation: -30, z: 3),
                .init(id: "c", word: "tide", x: 0.2, y: 0.2),
            ], extra: [" tide "])
        let checked = try valid.validated(against: set)
        #expect(checked.extraWords == ["tide"])
    }

    @Test func writesSnakeCaseKeysAndReadsTheOldCamelCaseOnes() throws {
        let written = String(decoding: try JSONEncoder().encode(board([], extra: ["tide"])), as: UTF8.self)
        #expect(written.contains(#""word_set_id":"test""#) && written.contains(#""extra_words":["tide"]"#))
        #expect(written.contains(#""font_scale":1"#) && !written.contains("wordSetId"))
        let old = #"{"wordSetId":"test","font":"mono","fontScale":1.5,"magnets":[],"extraWords":["tide"]}"#
        let read = try JSONDecoder().decode(Board.self, from: Data(old.utf8))
        #expect(read.wordSetId == "test" && read.font == .mono && read.fontScale == 1.5 && read.extraWords == ["tide"])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Board.self, from: Data(#"{"font":"mono"}"#.utf8)) }
    }

    @Test(arguments: [
        ("outside the board", Board.Magnet(id: "a", word: "moon", x: 1.2, y: 0)),
        ("negative", Board.Magnet(id: "a", word: "moon", x: 0, y: -0.1)),
        ("unknown word", Board.Magnet(id: "a", word: "sun", x: 0, y: 0)),
        ("rotation", Board.Magnet(id: "a", word: "sea", x: 0, y: 0, rotation: 270)),
        ("empty id", Board.Magnet(id: "", word: "sea", x: 0, y: 0)),
    ])
    func refusesBadMagnets(_ label: String, magnet: Board.Magnet) {
        #expect(throws: PoetryError.self, "\(label)") { try board([magnet]).validated(against: set) }
    }

    @Test func keepsTheShapeOfTheBoardItWasWrittenOn() throws {
        var shaped = board([])
        #expect(try shaped.validated(against: set).aspect == nil)
        shaped.aspect = 1.412
        #expect(try shaped.validated(against: set).aspect == 1.412)
        let wrongs: [Double] = [0.1, 5, .nan, .infinity]
        for wrong in wrongs {
            shaped.aspect = wrong
            let refused = shaped
            #expect(throws: PoetryError.self, "\(wrong)") { try refused.validated(against: set) }
        }
    }

    @Test func refusesOversizeBoardsDuplicateIdsAndOtherSets() {
        let many = (0...Board.maximumMagnets).map { Board.Magnet(id: "m\($0)", word: "sea", x: 0, y: 0) }
        #expect(throws: PoetryError.self) { try board(many).validated(against: set) }
        let twice = [Board.Magnet(id: "a", word: "sea", x: 0, y: 0), Board.Magnet(id: "a", word: "moon", x: 0, y: 0)]
        #expect(throws: PoetryError.self) { try board(twice).validated(against: set) }
        var other = board([])
        other.wordSetId = "elsewhere"
        #expect(throws: PoetryError.self) { try other.validated(against: set) }
        var scaled = board([])
        scaled.fontScale = 3
        #expect(throws: PoetryError.self) { try scaled.validated(against: set) }
    }
}

@Suite struct WordSetTests {
    @Test func builtInSetsHaveAtLeastSixtyUniqueWordsAndOneIsEmoji() throws {
        #expect(BuiltInWordSets.all.count >= 5)
        for set in BuiltInWordSets.all {
            #expect(set.words.count >= 60, "\(set.name) has \(set.words.count) words")
            let checked = try PoetryText.wordSet(name: set.name, words: set.words)
            #expect(checked.words.count == set.words.count)
        }
        #expect(BuiltInWordSets.all.contains { $0.words.contains { $0.unicodeScalars.contains { $0.properties.isEmojiPresentation } } })
    }

    @Test func ownSetsAreTrimmedDropRepeatsAndRefuseBadLengths() throws {
        let checked = try PoetryText.wordSet(name: " Kitchen ", words: [" spoon", "fork "])
        #expect(checked.name == "Kitchen" && checked.words == ["spoon", "fork"])
        // A word given again, in any case, is dropped: the first spelling stays.
        #expect(try PoetryText.wordSet(name: "K", words: ["Spoon", "fork", "spoon"]).words == ["Spoon", "fork"])
        #expect(throws: PoetryError.self) { try PoetryText.wordSet(name: "K", words: [String(repeating: "a", count: 41)]) }
        #expect(throws: PoetryError.self) { try PoetryText.wordSet(name: "", words: ["a"]) }
        #expect(throws: PoetryError.self) { try PoetryText.wordSet(name: "K", words: []) }
    }

    @Test(arguments: [
        ("moon", "moon"), (" moon", "moon"), ("moon\n", "moon"), ("\tsea salt ", "sea salt"), ("\u{00A0}déjà\u{2003}", "déjà"),
        ("été", "été"), ("", ""), ("   ", ""), ("a", "a"),
    ])
    func trimsWhitespaceAtEitherEndAsFoundationDoes(text: String, trimmed: String) {
        #expect(PoetryText.trimmed(text) == trimmed)
        #expect(PoetryText.trimmed(text) == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

@Suite struct PronunciationTests {
    let dictionary = PronouncingDictionary.parse(
        """
        ;;; comment line ignored because of the number of fields? no: it has words
        cat K AE1 T
        hat HH AE1 T
        hat(2) HH AH0 T
        o'clock AH0 K L AA1 K
        butter B AH1 T ER0
        haiku HH AY1 K UW0 # a comment
        """)

    @Test func keepsPlainWordsWithTheirFirstPronunciation() {
        #expect(dictionary.map(\.word) == ["cat", "hat", "butter", "haiku"])
        #expect(dictionary[1].phones == ["HH", "AE1", "T"])
    }

    @Test func rhymeKeysSyllablesAndFirstSounds() {
        let byWord = Dictionary(uniqueKeysWithValues: dictionary.map { ($0.word, $0) })
        #expect(byWord["cat"]?.rhymeKey == byWord["hat"]?.rhymeKey)
        #expect(byWord["butter"]?.rhymeKey == "AH T ER")
        #expect(byWord["haiku"]?.syllables == 2)
        #expect(byWord["cat"]?.syllables == 1)
        #expect(byWord["haiku"]?.firstSound == byWord["hat"]?.firstSound)
    }

    @Test func nearRhymesSwapTheLastConsonantForAKindredOne() {
        #expect(Pronunciation.nearRhymeKeys(of: "AH V") == ["AH DH", "AH F", "AH S", "AH SH", "AH TH", "AH Z", "AH ZH"])
        #expect(Pronunciation.nearRhymeKeys(of: "AA R T") == ["AA R B", "AA R D", "AA R G", "AA R K", "AA R P"])
        #expect(Pronunciation.nearRhymeKeys(of: "EY").isEmpty, "a key ending in a vowel has no near rhymes of this kind")
    }
}

@Suite struct WordFrequenciesTests {
    /// [ {"format":"cB"}, [], ["the","of"], ["moon","the"] ] in MessagePack.
    let sample: [UInt8] =
        [0x94, 0x81, 0xA6] + Array("format".utf8) + [0xA2] + Array("cB".utf8)
        + [0x90, 0x92, 0xA3] + Array("the".utf8) + [0xA2] + Array("of".utf8)
        + [0x92, 0xA4] + Array("moon".utf8) + [0xA3] + Array("the".utf8)

    @Test func readsBucketsKeepingEachWordsFirst() throws {
        #expect(try WordFrequencies.parse(sample) == ["the": 2, "of": 2, "moon": 3])
    }

    @Test func refusesOtherFiles() {
        #expect(throws: WordFrequencies.ParseError.self) { try WordFrequencies.parse(Array("hello".utf8)) }
        #expect(throws: WordFrequencies.ParseError.self) { try WordFrequencies.parse(Array(sample.dropLast(2))) }
    }
}
