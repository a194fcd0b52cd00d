import Pictures
import Testing

@Suite struct ImageKindTests {
    @Test func recognisesPicturesByTheirBytesOnly() {
        #expect(ImageKind(sniffing: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0]) == .jpeg)
        #expect(ImageKind(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageKind(sniffing: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(ImageKind(sniffing: Array("GIF89a....".utf8)) == .gif)
        #expect(ImageKind(sniffing: Array("just some text pretending to be a .png".utf8)) == nil)
        #expect(ImageKind(sniffing: [UInt8]()) == nil)
    }
}

@Suite struct SVGSafetyTests {
    @Test(arguments: [
        ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#123"/></svg>"##,
        "<?xml version=\"1.0\"?>\n<svg>\n<title>Only: one = two</title><g stroke-width=\"3\" opacity=\".5\"/></svg>",
        #"<svg><text font-family="monospace">onward = forward</text></svg>"#,
        // References inside the picture, and words that only look like the forbidden ones.
        ##"<svg><defs><linearGradient id="g"/><circle id="c" r="2"/></defs><rect fill="url(#g)"/><use href="#c"/><use xlink:href='#c'/></svg>"##,
        #"<svg><title>Metadata: the lighthouse &amp; the bell &#8217;s ring</title></svg>"#,
    ])
    func aPlainPictureIsSafe(svg: String) {
        #expect(SVGSafety.isSafePicture(Array(svg.utf8)))
    }

    @Test(arguments: [
        "<svg><script>alert(1)</script></svg>",
        "<svg onload=alert(1)></svg>",
        "<svg><rect ONCLICK = \"alert(1)\"/></svg>",
        "<svg><a href=\"javascript:alert(1)\"><text>x</text></a></svg>",
        "<svg><foreignObject><iframe src=x></iframe></foreignObject></svg>",
        "<svg/onload=alert(1)>",
        "<html><body><script>alert(1)</script></body></html>",
        // Entity-encoded and whitespace-split script links.
        #"<svg><a href="&#106;avascript:alert(1)"><text>x</text></a></svg>"#,
        #"<svg><a href="&#x6A;&#x61;vascript&colon;alert(1)"><text>x</text></a></svg>"#,
        "<svg><a href=\"java\tscript:alert(1)\"><text>x</text></a></svg>",
        #"<svg><a href="jav&#9;ascript:alert(1)"><text>x</text></a></svg>"#,
        // A <set> or <animate> that rewrites a link.
        ##"<svg><a href="#ok"><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>"##,
        ##"<svg><a href="#ok"><animate attributeName="href" values="#ok;https://evil.example"/><text>x</text></a></svg>"##,
        // data: and outside links and loads.
        #"<svg><a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"><text>x</text></a></svg>"#,
        #"<svg><image href="https://evil.example/track.png"/></svg>"#,
        #"<svg><image xlink:href="//evil.example/track.png"/></svg>"#,
        #"<svg><rect fill="url(https://evil.example/p.svg#x)"/></svg>"#,
        #"<svg><style>@import url(https://evil.example/s.css);</style></svg>"#,
        #"<svg><use href="https://evil.example/sprite.svg#icon"/></svg>"#,
        "not a picture at all",
    ])
    func aScriptOrADocumentIsNot(svg: String) {
        #expect(!SVGSafety.isSafePicture(Array(svg.utf8)))
    }

    @Test func bytesThatAreNotTextAreNot() {
        #expect(!SVGSafety.isSafePicture([0xFF, 0xFE, 0x3C, 0x00, 0x73, 0x00]))
    }
}
