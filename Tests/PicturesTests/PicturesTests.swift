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
        "not a picture at all",
    ])
    func aScriptOrADocumentIsNot(svg: String) {
        #expect(!SVGSafety.isSafePicture(Array(svg.utf8)))
    }

    @Test func bytesThatAreNotTextAreNot() {
        #expect(!SVGSafety.isSafePicture([0xFF, 0xFE, 0x3C, 0x00, 0x73, 0x00]))
    }
}
