import Testing

@testable import WebApp

@Suite struct CSSMinifierTests {
    func minified(_ css: String) -> String {
        String(decoding: CSSMinifier.minified(Array(css.utf8)), as: UTF8.self)
    }

    @Test func leavesOutCommentsIndentationAndEmptyLines() {
        let css = """
            /* The header.
               Two lines. */
            .a {
              color: red; /* why */
              margin: 0 /* inside */ auto;
            }

            \t.b{top:0}
            """
        #expect(minified(css) == ".a {\ncolor: red; \nmargin: 0  auto;\n}\n.b{top:0}")
    }

    @Test func keepsStringsThatLookLikeComments() {
        #expect(minified(#".a::before { content: "/* not a comment */"; }"#) == #".a::before { content: "/* not a comment */"; }"#)
        #expect(minified(#".a::after { content: '\'/*'; } /* gone */"#) == #".a::after { content: '\'/*'; } "#)
        #expect(minified(#"[title="a \"b\" /* c"] { x: 1 }"#) == #"[title="a \"b\" /* c"] { x: 1 }"#)
    }

    @Test func anUnclosedCommentEndsTheSheet() {
        #expect(minified(".a { x: 1 }\n/* cut") == ".a { x: 1 }\n")
        #expect(minified("") == "")
    }
}
