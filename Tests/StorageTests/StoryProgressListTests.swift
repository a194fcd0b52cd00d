import Foundation
import Testing

@testable import Storage

/// A reader's trail and endings are stored as JSON lists; the plain ones are read by hand, the rest by JSONDecoder.
@Suite struct StoryProgressListTests {
    static let lists: [[String]] = [
        [], ["Dock"], ["Dock", "Warehouse", "Dock"], ["", "a", ""], ["Déjà vu", "北京", "\u{301}combining first", "e\u{301}"],
        ["say \"hi\"", "back\\slash", "line\nbreak", "tab\t", "a/b", "comma,\",\"inside"], [" spaced ", "[brackets]"],
    ]

    @Test(arguments: lists)
    func aWrittenListReadsBackAsItWas(list: [String]) {
        #expect(StoryRepository.list(StoryRepository.text(list)) == list)
    }

    /// Text written otherwise, or broken: read as JSONDecoder reads it, empty when it cannot.
    @Test(arguments: [
        #"[ "Dock" , "Hall" ]"#, #"["Do\u0063k"]"#, "", "[", "]", "[]]", #"[,]"#, #"["a",]"#, #"["a""b"]"#, #"["a"]x"#, #"["a"#,
        #"[1]"#, #"{"a":1}"#, #""a""#, "[\"a\u{1}\"]",
    ])
    func anyOtherTextReadsAsJSONDecoderReadsIt(text: String) {
        let decoded = (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
        #expect(StoryRepository.list(text) == decoded)
    }
}
