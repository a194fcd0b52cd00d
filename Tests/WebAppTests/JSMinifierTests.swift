import Foundation
import Testing

@testable import WebApp

@Suite struct JSMinifierTests {
    func minified(_ js: String) -> String {
        String(decoding: JSMinifier.minified(Array(js.utf8)), as: UTF8.self)
    }

    @Test func leavesOutCommentsIndentationAndEmptyLines() {
        let js = """
            // The page.
            /**
             * Two lines.
             */
            export function a(x) {
              // why
              const y = x + 1; // after code

              /* a block */ return y;
            }
            """
        #expect(minified(js) == "export function a(x) {\nconst y = x + 1; \nreturn y;\n}")
    }

    @Test func keepsStringsAndRegularExpressionsThatLookLikeComments() {
        let kept = [
            #"const url = 'https://example.org/a'; const b = "/* no */";"#,
            #"const s = 'it\'s // here';"#,
            #"const r = /\/\/ not a comment/g.test(x);"#,
            #"if (!/[/*]/.test(x)) return;"#,
            #"return /a"b/.exec(x);"#,
            "const half = total / 2 / 3; // gone",
            "const m = x.y / z;",
        ]
        #expect(minified(kept[0]) == kept[0])
        #expect(minified(kept[1]) == kept[1])
        #expect(minified(kept[2]) == kept[2])
        #expect(minified(kept[3]) == kept[3])
        #expect(minified(kept[4]) == kept[4])
        #expect(minified(kept[5]) == "const half = total / 2 / 3; ")
        #expect(minified(kept[6]) == kept[6])
    }

    @Test func keepsTemplateLiteralsWholeIndentationAndAll() {
        let js = """
            const t = `first
              // kept: the template's text
            ${a.map((x) => {
              // gone: code inside the expression
              return `${x} // kept ${{ y: 1 }.y}`;
            })}
              /* kept */ end`;
            // gone
            """
        let expected = """
            const t = `first
              // kept: the template's text
            ${a.map((x) => {
            return `${x} // kept ${{ y: 1 }.y}`;
            })}
              /* kept */ end`;

            """
        #expect(minified(js) == expected)
    }

    /// Every script Trove serves is followed to its end (one it could not follow would reach phones whole, with
    /// nothing to say so), and parses to the same syntax tree as its file: acorn, the parser node carries, reads both
    /// (`node --expose-internals`; `make test` installs node). Only positions may differ; every literal's text is
    /// compared, template literals' included.
    @Test func everyScriptTroveServesParsesToTheSameTreeMinified() throws {
        let folder = try resourcesDirectory().appendingPathComponent("Public")
        let scripts = (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".js") }.sorted()
        #expect(scripts.count > 50)
        let minifiedFolder = FileManager.default.temporaryDirectory.appendingPathComponent("trove-minified-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: minifiedFolder) }
        for script in scripts {
            let js = try [UInt8](Data(contentsOf: folder.appendingPathComponent(script)))
            let minified = JSMinifier.minified(js)
            #expect(minified.count < js.count, "\(script) is served as it is")
            let target = minifiedFolder.appendingPathComponent(script)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(minified).write(to: target)
        }
        let node = Process()
        node.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        node.arguments = ["node", "--expose-internals", "-e", Self.sameTrees, folder.path, minifiedFolder.path] + scripts
        let output = Pipe()
        node.standardOutput = output
        node.standardError = output
        try node.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        node.waitUntilExit()
        #expect(node.terminationStatus == 0, "\(said)")
    }

    /// Exits 1 naming each script whose minified copy parses to another tree (or not at all).
    static let sameTrees = #"""
        const acorn = require('internal/deps/acorn/acorn/dist/acorn');
        const fs = require('fs'), path = require('path');
        const [original, minified, ...scripts] = process.argv.slice(1);
        const tree = (file) => {
          const text = fs.readFileSync(file, 'utf8');
          let ast;
          try { ast = acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'module' }); }
          catch { ast = acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'script' }); }
          return JSON.stringify(ast, (k, v) => (k === 'start' || k === 'end' ? undefined : typeof v === 'bigint' ? `${v}n` : v));
        };
        const differ = [];
        for (const script of scripts) {
          try { if (tree(path.join(original, script)) !== tree(path.join(minified, script))) differ.push(`${script}: another tree`); }
          catch (error) { differ.push(`${script}: ${error.message}`); }
        }
        if (differ.length) { console.log(differ.join('\n')); process.exit(1); }
        console.log(`${scripts.length} scripts: the same trees`);
        """#

    @Test func aScriptItCannotFollowIsServedAsItIs() {
        for js in ["const s = 'open\nline';", "const t = `open", "/* open", "const a = b\n  / c;", "x = `${ {"] {
            #expect(minified(js) == js, "\(js)")
        }
        #expect(minified("") == "")
    }
}
