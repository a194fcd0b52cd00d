import HTTPTypes

extension HTTPFields {
    /// The field's value as `self[name]` reads it (the fields of that name joined), without building the
    /// subscript's joined sequence when the name comes once or not at all, as nearly every header does: that
    /// generic sequence was about 1.5% of a small answer, read ten times on every request (perf, a random card).
    func value(_ name: HTTPField.Name) -> String? {
        guard let first = firstIndex(where: { $0.name == name }) else { return nil }
        if self[index(after: first)...].contains(where: { $0.name == name }) { return self[name] }
        return self[first].value
    }
}
