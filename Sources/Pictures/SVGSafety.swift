/// Whether an SVG file is a picture and nothing more: an `<svg>` document of SVG's own drawing elements, with no
/// script, no event handler attribute, no link or load outside itself (only `#fragment` references), no animation
/// that rewrites a link or a handler, and no embedded HTML or document. Pages show story pictures in `<img>`, where
/// scripts never run, but a picture opened on its own is a document: this keeps it inert there too (and the server
/// sends it with a sandboxing CSP besides).
///
/// An allowlist read from the parsed file (`XMLTokens`), namespaces resolved as an XML parser resolves them: an
/// element is known by its namespace and local name (`<s:script>` with `s` bound to SVG's namespace is a script, and
/// `<h:iframe>` in XHTML's is HTML), so neither a prefix nor a `>` inside an attribute hides anything.
public enum SVGSafety {
    static let svgNamespace = "http://www.w3.org/2000/svg"
    static let xlinkNamespace = "http://www.w3.org/1999/xlink"
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    /// Editors' metadata, which browsers ignore: Inkscape's, Sodipodi's, RDF, Dublin Core, Creative Commons, Affinity's,
    /// Sketch's and Illustrator's.
    static let metadataNamespaces: Set<String> = [
        "http://www.inkscape.org/namespaces/inkscape", "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://purl.org/dc/elements/1.1/", "http://creativecommons.org/ns#",
        "http://www.serif.com/", "http://www.bohemiancoding.com/sketch/ns", "http://ns.adobe.com/AdobeIllustrator/10.0/",
        "http://ns.adobe.com/SaveForWeb/1.0/", "http://ns.adobe.com/Extensibility/1.0/", "http://ns.adobe.com/Variables/1.0/",
        "http://ns.adobe.com/Graphs/1.0/", "http://ns.adobe.com/xap/1.0/",
    ]
    /// SVG's drawing, structure, paint, text, filter and animation elements (no script, foreignObject, set, or
    /// anything that embeds a document).
    static let elements: Set<String> = [
        "svg", "g", "defs", "symbol", "use", "title", "desc", "metadata", "switch", "a", "view", "style",
        "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "image",
        "text", "tspan", "textPath", "linearGradient", "radialGradient", "stop", "pattern", "clipPath", "mask", "marker",
        "filter", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix", "feDiffuseLighting",
        "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA", "feFuncB", "feFuncG", "feFuncR",
        "feGaussianBlur", "feImage", "feMerge", "feMergeNode", "feMorphology", "feOffset", "fePointLight", "feSpecularLighting",
        "feSpotLight", "feTile", "feTurbulence", "animate", "animateTransform", "animateMotion", "mpath",
    ]
    /// A file nests no deeper than this (the reader is not recursive; this bounds its memory).
    static let maximumDepth = 256

    public static func isSafePicture(_ bytes: some Collection<UInt8>) -> Bool {
        guard let text = String(validating: bytes, as: UTF8.self), let tokens = try? XMLTokens.read(text) else { return false }
        var scopes: [[String: String]] = [["xml": xmlNamespace, "xlink": xlinkNamespace]]
        var open: [(name: String, namespace: String, local: String)] = []
        var sawRoot = false
        for token in tokens {
            switch token {
            case .text(let text):
                if let parent = open.last, parent.namespace == svgNamespace, parent.local == "style", !isSafeCSS(text) { return false }
            case .end(let name):
                guard let last = open.popLast(), last.name == name else { return false }
                scopes.removeLast()
            case .start(let name, let attributes, let selfClosing):
                var scope = scopes[scopes.count - 1]
                for (attribute, value) in attributes {
                    if attribute == "xmlns" { scope[""] = value }
                    if attribute.hasPrefix("xmlns:") { scope[String(attribute.dropFirst(6))] = value }
                }
                guard let (namespace, local) = resolve(name, in: scope, isElement: true), open.count < maximumDepth else { return false }
                if open.isEmpty {
                    guard !sawRoot, namespace == svgNamespace, local == "svg" else { return false }
                    sawRoot = true
                }
                if namespace == svgNamespace {
                    guard elements.contains(local) else { return false }
                } else if !metadataNamespaces.contains(namespace) {
                    return false
                }
                for (attribute, value) in attributes where !(attribute == "xmlns" || attribute.hasPrefix("xmlns:")) {
                    guard let (attributeNamespace, attributeLocal) = resolve(attribute, in: scope, isElement: false),
                        isSafeAttribute(attributeNamespace, attributeLocal, value: value, element: local, scope: scope)
                    else { return false }
                }
                if !selfClosing {
                    open.append((name, namespace, local))
                    scopes.append(scope)
                }
            }
        }
        return sawRoot && open.isEmpty
    }

    /// The namespace and local name of `name` in `scope`. An element without a prefix takes the default namespace,
    /// SVG's when none is declared (files written for `<img>` often leave it out); an attribute without one has none.
    static func resolve(_ name: String, in scope: [String: String], isElement: Bool) -> (String, String)? {
        let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            guard let namespace = scope[parts[0]] else { return nil }
            return (namespace, parts[1])
        }
        return (isElement ? scope[""] ?? svgNamespace : "", name)
    }

    /// An attribute in any namespace but a handler (`on…`, namespaced or not, refused to be sure); a link only to a
    /// `#fragment` (or, for an `<image>`, a raster picture inline); CSS that loads nothing.
    static func isSafeAttribute(_ namespace: String, _ local: String, value: String, element: String, scope: [String: String]) -> Bool {
        guard !local.lowercased().hasPrefix("on") else { return false }
        if local == "href" || local == "src" {
            guard isFragment(value) || (element == "image" && isInlineRaster(value)) else { return false }
        }
        // An animation must not rewrite a link or a handler.
        if local == "attributeName", ["animate", "animateTransform", "animateMotion"].contains(element) {
            guard let (_, animated) = resolve(value.trimmingXMLSpace(), in: scope, isElement: false),
                !["href", "src"].contains(animated), !animated.lowercased().hasPrefix("on")
            else { return false }
        }
        return isSafeCSS(value)
    }

    /// A PNG, JPEG, GIF or WebP picture written into the file (`data:image/png;base64,…`), as editors embed photos.
    /// An `<image>` shows it as a picture; no script can come of it.
    static func isInlineRaster(_ value: String) -> Bool {
        let squeezed = String(value.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }).lowercased()
        return ["png", "jpeg", "jpg", "gif", "webp"].contains { squeezed.hasPrefix("data:image/\($0);base64,") }
    }

    /// `#id`, whatever whitespace or control characters a URL parser would drop around or inside it.
    static func isFragment(_ value: String) -> Bool {
        value.unicodeScalars.first { $0.value > 0x20 && $0.value != 0x7F } == "#"
    }

    /// CSS (a `<style>`, a `style` attribute, a presentation attribute) that loads nothing: every `url(…)` is a
    /// `#fragment`, and none of the ways CSS reaches outside (`@import`, `image-set()`, bindings, expressions). CSS
    /// escapes (`\75 rl(`) are decoded before looking.
    static func isSafeCSS(_ text: String) -> Bool {
        let css = decodingCSSEscapes(text).lowercased()
        let squeezed = String(css.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F })
        let forbidden = ["@import", "image-set(", "expression(", "-moz-binding", "behavior:", "javascript:", "vbscript:", "@font-face"]
        guard !forbidden.contains(where: squeezed.contains) else { return false }
        var rest = Substring(squeezed)
        while let found = rest.firstRange(of: "url(") {
            var argument = rest[found.upperBound...]
            if let quote = argument.first, quote == "\"" || quote == "'" { argument = argument.dropFirst() }
            guard argument.first == "#" else { return false }
            rest = argument
        }
        return true
    }

    /// `\75` (and `\000075 `, `\u`) read as the character they stand for, as CSS reads them.
    static func decodingCSSEscapes(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            let hex = scalars.prefix { $0.properties.isASCIIHexDigit }.prefix(6)
            if hex.isEmpty {
                if let next = scalars.popFirst() { result.append(next) }
                continue
            }
            scalars = scalars.dropFirst(hex.count)
            if let first = scalars.first, XMLTokens.isSpace(first) { scalars = scalars.dropFirst() }
            if let value = UInt32(String(String.UnicodeScalarView(hex)), radix: 16), let decoded = Unicode.Scalar(value) {
                result.append(decoded)
            }
        }
        return String(result)
    }
}
