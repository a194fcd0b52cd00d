import Foundation

// An edit made on one device, saved over what another device (or this one's earlier save, sent late from the outbox)
// saved meanwhile: each edit says what it was made on (`base`), and what it did not change keeps what is stored now.

/// One field of an edit made in a form opened on `base`, over the record as stored now (`current`): a field the form
/// left as it was keeps what another device saved meanwhile, a field it changed takes the edit's value. So two
/// devices editing different fields of one record (the notes here, the type there) both keep their change.
public func edited<Value: Equatable>(_ edit: Value, base: Value, current: Value) -> Value {
    edit == base ? current : edit
}

/// A text people write (a note) edited from `base` into `edit`, over `current` as stored now. Where both sides
/// changed it, neither side's words are lost. Line by line: lines changed on one side only take that change, lines
/// added on one side are added. Where both changed the same lines:
/// - the other side kept this edit's `base` whole, as lines or as items between `separator`s, and wrote beside it:
///   this edit takes `base`'s place there (so a device's saves sent in order follow one another);
/// - otherwise both are kept, the one already there first and `separator` between them, unless one holds the other;
/// - lines emptied on one side and changed on the other keep the change.
public func editedText(_ edit: String, base: String, current: String, joinedBy separator: String) -> String {
    if edit == base || edit == current { return current }
    if current == base { return edit }
    let (o, a, b) = (lines(base), lines(edit), lines(current))
    // A note is short; this bounds the line matching's table for one that is not.
    guard o.count * max(a.count, b.count) <= 100_000 else {
        return bothChanged(edit, base: base, current: current, separator: separator)
    }
    let changes = (changes(o, a, mine: true) + changes(o, b, mine: false)).sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    var merged: [String] = []
    var at = 0
    var next = 0
    while next < changes.count {
        // The changes that touch one stretch of the base: overlapping, or both adding lines at one place.
        var group = [changes[next]]
        var (start, end) = (changes[next].start, changes[next].end)
        next += 1
        while next < changes.count,
            changes[next].start < end || (changes[next].start == end && changes[next].end == end && start == end)
        {
            group.append(changes[next])
            end = max(end, changes[next].end)
            next += 1
        }
        merged += o[at..<start]
        at = end
        func applied(_ side: [LineChange]) -> [String] {
            var lines: [String] = []
            var line = start
            for change in side {
                lines += o[line..<change.start] + change.lines
                line = change.end
            }
            return lines + o[line..<end]
        }
        let (mine, theirs) = (applied(group.filter(\.mine)), applied(group.filter { !$0.mine }))
        let was = Array(o[start..<end])
        if mine == was || mine == theirs {
            merged += theirs
        } else if theirs == was {
            merged += mine
        } else if mine.count == was.count, theirs.count == was.count {
            for (line, (edit, current)) in zip(was, zip(mine, theirs)) {
                merged.append(bothChanged(edit, base: line, current: current, separator: separator))
            }
        } else {
            let kept = bothChanged(
                mine.joined(separator: "\n"), base: was.joined(separator: "\n"), current: theirs.joined(separator: "\n"),
                separator: separator)
            if !kept.isEmpty { merged.append(kept) }
        }
    }
    return (merged + o[at...]).joined(separator: "\n")
}

private func lines(_ text: String) -> [String] {
    text.isEmpty ? [] : text.components(separatedBy: "\n")
}

/// The same lines changed on both sides (see `editedText`).
private func bothChanged(_ edit: String, base: String, current: String, separator: String) -> String {
    if edit == base || edit == current { return current }
    if current == base { return edit }
    if !base.isEmpty, let kept = substituted(base, by: edit, in: current, separator: separator) { return kept }
    if edit.isEmpty || current.contains(edit) { return current }
    if current.isEmpty || edit.contains(current) { return edit }
    return current + separator + edit
}

/// `current` with `edit` where `base` stands once in it, whole (as lines, or as items between separators).
private func substituted(_ base: String, by edit: String, in current: String, separator: String) -> String? {
    for divider in Set(["\n", separator]) {
        let items = current.components(separatedBy: divider)
        let run = base.components(separatedBy: divider)
        guard run.count <= items.count else { continue }
        let starts = (0...(items.count - run.count)).filter { items[$0..<$0 + run.count].elementsEqual(run) }
        guard starts.count == 1, let start = starts.first else { continue }
        var kept = items
        kept.replaceSubrange(start..<start + run.count, with: edit.isEmpty ? [] : [edit])
        return kept.joined(separator: divider)
    }
    return nil
}

/// Lines `start..<end` of a base replaced by `lines` on one side (`mine`: the edit's; else the stored text's).
private struct LineChange {
    let start: Int
    let end: Int
    let lines: [String]
    let mine: Bool
}

/// How `x` differs from `o`, as the stretches of `o` it replaces (an empty stretch: lines added there).
private func changes(_ o: [String], _ x: [String], mine: Bool) -> [LineChange] {
    let kept = matches(o, x)
    var changes: [LineChange] = []
    var (i, j) = (0, 0)
    while i < o.count || j < x.count {
        var k = i
        while k < o.count, kept[k] == nil { k += 1 }
        let l = k < o.count ? kept[k]! : x.count
        if k > i || l > j { changes.append(LineChange(start: i, end: k, lines: Array(x[j..<l]), mine: mine)) }
        guard k < o.count else { break }
        (i, j) = (k + 1, l + 1)
    }
    return changes
}

/// For each line of `o`, the line of `x` it is matched to in a longest common subsequence of the two, if any.
private func matches(_ o: [String], _ x: [String]) -> [Int?] {
    let width = x.count + 1
    var length = [Int](repeating: 0, count: (o.count + 1) * width)
    for i in stride(from: o.count - 1, through: 0, by: -1) {
        for j in stride(from: x.count - 1, through: 0, by: -1) {
            length[i * width + j] =
                o[i] == x[j] ? length[(i + 1) * width + j + 1] + 1 : max(length[(i + 1) * width + j], length[i * width + j + 1])
        }
    }
    var found = [Int?](repeating: nil, count: o.count)
    var (i, j) = (0, 0)
    while i < o.count, j < x.count {
        if o[i] == x[j] {
            found[i] = j
            (i, j) = (i + 1, j + 1)
        } else if length[(i + 1) * width + j] >= length[i * width + j + 1] {
            i += 1
        } else {
            j += 1
        }
    }
    return found
}

/// Whether `text`, written over `base` (what the writing device last saw), is short enough to save: at most `limit`
/// characters, or as many as `base` has (trimmed). Text two devices wrote, kept together by `editedText`, can pass the
/// limit, and the next edit of it is not refused for what neither device wrote alone.
public func fits(_ text: String, limit: Int, over base: String?) -> Bool {
    let count = text.count
    return count <= limit || count <= (base?.trimmingCharacters(in: .whitespacesAndNewlines).count ?? 0)
}
