/// The one CSV writer: RFC 4180 fields, safe to open in a spreadsheet (a text a spreadsheet would run as a
/// formula gets a leading quote mark; a number such as -3.5 stays a number), lines ending in CRLF.
enum CSV {
    static func field(_ value: String) -> String {
        var text = value
        if let first = text.first, "=+-@\t\r".contains(first), Double(text) == nil { text = "'" + text }
        guard text.contains(where: { ",\"\r\n".contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",")
    }
}
