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
        // What editors write: a DOCTYPE, their own metadata, a photo embedded as a picture.
        """
        <?xml version="1.0" encoding="UTF-8" standalone="no"?>
        <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
          xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
          inkscape:version="1.2"><sodipodi:namedview pagecolor="#fff" inkscape:zoom="1"/>
          <image width="4" height="4" xlink:href="data:image/png;base64,iVBORw0KGgo="/><!-- a comment with <script> in it -->
          <style><![CDATA[ rect { fill: url(#g); } ]]></style><rect style="fill:url('#g')"/>
        </svg>
        """,
        "<!DOCTYPE svg>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><rect x=\"0\"></rect></svg>",
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
        // Issue 56's bypasses: a `>` or `&#62;` in an earlier attribute, a prefixed namespace, CSS that loads.
        #"<svg><rect title=">" onload="alert(1)"/></svg>"#,
        #"<svg><rect title="&#62;" onload="alert(1)"/></svg>"#,
        #"<svg xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></svg>"#,
        #"<svg xmlns:h="http://www.w3.org/1999/xhtml"><h:script>alert(1)</h:script></svg>"#,
        ##"<svg xmlns:s="http://www.w3.org/2000/svg" xmlns:h="http://www.w3.org/1999/xhtml"><s:foreignObject><h:iframe src="#x"/></s:foreignObject></svg>"##,
        ##"<svg xmlns:q="http://www.w3.org/1999/xlink"><a q:href="#x"><animate attributeName="q:href" values="javascript:alert(1)"/></a></svg>"##,
        #"<svg><rect style="fill: image-set(&quot;https://evil.example/x.png&quot; 1x)"/></svg>"#,
        #"<svg><style>rect { fill: \75 rl(https://evil.example/p.svg) }</style></svg>"#,
        #"<!DOCTYPE svg SYSTEM "https://evil.example/x.dtd"><svg/>"#,
        #"<!DOCTYPE svg [<!ENTITY x "javascript:alert(1)">]><svg><a href="&x;"/></svg>"#,
        #"<?xml-stylesheet href="https://evil.example/s.css"?><svg/>"#,
        #"<svg><image href="data:image/svg+xml;base64,PHN2Zz4="/></svg>"#,
        "<svg><rect/></svg><svg onload=\"alert(1)\"/>",
        "<svg><g></svg>",
    ])
    func aScriptOrADocumentIsNot(svg: String) {
        #expect(!SVGSafety.isSafePicture(Array(svg.utf8)))
    }

    @Test func bytesThatAreNotTextAreNot() {
        #expect(!SVGSafety.isSafePicture([0xFF, 0xFE, 0x3C, 0x00, 0x73, 0x00]))
    }
}
