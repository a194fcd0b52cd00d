/// Whether a Twine passage always offers the reader a way on, read without running it: a link or a goto outside
/// any condition does, and so does an if/else chain (or a switch with a default) whose every branch does. A
/// passage that does not can end the story on some path (`Chapter.canEnd`), as a crossing that ends the story
/// with the lantern and sends the reader adrift without it.
struct TwineBranches {
    /// A conditional hook: one branch of an if/elseif/else chain or a switch, over `start..<end` of the passage.
    struct Branch {
        let start: Int
        let end: Int
        let group: Int
    }

    private(set) var branches: [Branch] = []
    /// Per chain: whether it has an `else` (or a `default`), so one of its branches always shows.
    private(set) var exhaustive: [Bool] = []
    /// Where something that moves the reader on is (a link, a goto, a back or return link).
    private(set) var moves: [Int] = []
    /// The latest chain started directly inside each container (a branch's index, or -1 for the passage), for a
    /// Harlowe `(else:)` that joins it.
    private var lastChain: [Int: Int] = [:]

    mutating func move(at position: Int) { moves.append(position) }

    /// A Harlowe `(if:)`/`(unless:)` (a new chain) or `(else-if:)`/`(else:)` (joining the chain before it in the
    /// same hook) whose hook spans `start..<end`.
    mutating func harloweHook(_ macro: String, start: Int, end: Int) {
        let container = innermost(containing: start)
        let group: Int
        if macro == "if" || macro == "unless" || lastChain[container] == nil {
            group = exhaustive.count
            exhaustive.append(false)
        } else {
            group = lastChain[container] ?? 0
        }
        if macro == "else" { exhaustive[group] = true }
        lastChain[container] = group
        branches.append(Branch(start: start, end: end, group: group))
    }

    /// A SugarCube `<<if>>` or `<<switch>>` whose body spans `bodyStart..<bodyEnd`, with its clause tags (`elseif`,
    /// `else`, `case`, `default`) at `start..<end` inside it.
    mutating func sugarChain(_ macro: String, bodyStart: Int, bodyEnd: Int, clauses: [(name: String, start: Int, end: Int)]) {
        let group = exhaustive.count
        exhaustive.append(clauses.contains { $0.name == "else" || $0.name == "default" })
        // An if's first branch is its body up to the first clause; a switch's text before its first case shows never.
        var start: Int? = macro == "if" ? bodyStart : nil
        for clause in clauses {
            if let open = start { branches.append(Branch(start: open, end: clause.start, group: group)) }
            start = clause.end
        }
        if let open = start { branches.append(Branch(start: open, end: bodyEnd, group: group)) }
    }

    /// The passage always offers a way on.
    var alwaysMovesOn: Bool { surelyMoves(in: -1) }

    private func surelyMoves(in container: Int) -> Bool {
        if moves.contains(where: { innermost(containing: $0) == container }) { return true }
        let inside = branches.indices.filter { innermost(containing: branches[$0].start, excluding: $0) == container }
        for group in Set(inside.map { branches[$0].group }) where exhaustive[group] {
            if inside.filter({ branches[$0].group == group }).allSatisfy({ surelyMoves(in: $0) }) { return true }
        }
        return false
    }

    /// The smallest branch around `position` (-1: none, the passage itself).
    private func innermost(containing position: Int, excluding skipped: Int? = nil) -> Int {
        var best = -1
        for (index, branch) in branches.enumerated() where index != skipped && branch.start <= position && position < branch.end {
            if best == -1 || branch.end - branch.start < branches[best].end - branches[best].start { best = index }
        }
        return best
    }
}
