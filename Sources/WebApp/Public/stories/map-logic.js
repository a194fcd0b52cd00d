// The story map as a tree for a narrow screen (no DOM, tested with node in tests/js/stories-map.test.mjs).
// Each chapter is shown once, under the first chapter (breadth first from the start) whose choice reaches it;
// a choice to a chapter shown elsewhere is a reference ("also leads to …"). Only the chapters this reader has
// been to are shown unless `showAll` (the author always sees all): a choice to one not visited is only counted.

/**
 * {root, others, unreachable, shown, total}: `root` and every node are {id, name, kind, here, children, refs,
 * unexplored}; `others` are visited chapters no shown chapter leads to (an ending found on an earlier walk
 * this device did not see); `unreachable` (with showAll) are chapters no choice from the start leads to.
 */
export function mapTree(story, { visited = [], showAll = false, here = null } = {}) {
  const chapters = new Map(story.chapters.map((c) => [c.id, c]));
  const seen = new Set(visited);
  const visible = (id) => chapters.has(id) && (showAll || seen.has(id) || id === story.start_chapter_id || id === here);
  const kind = (c) => (c.id === story.start_chapter_id ? 'start' : c.is_ending ? 'ending' : 'chapter');
  const node = (c) => ({
    id: c.id,
    name: c.name || `Chapter ${c.id}`,
    kind: kind(c),
    here: c.id === here,
    children: [],
    refs: [],
    unexplored: 0,
  });

  const nodes = new Map();
  const start = chapters.get(story.start_chapter_id);
  if (!start) return { root: null, others: [], unreachable: [], shown: 0, total: chapters.size };
  nodes.set(start.id, node(start));
  const queue = [start.id];
  while (queue.length) {
    const from = queue.shift();
    const parent = nodes.get(from);
    for (const choice of chapters.get(from).choices || []) {
      const to = choice.chapter_id;
      if (!visible(to)) {
        if (chapters.has(to)) parent.unexplored += 1;
        continue;
      }
      if (nodes.has(to)) {
        if (!parent.refs.some((r) => r.id === to)) parent.refs.push({ id: to, name: nodes.get(to).name });
        continue;
      }
      const child = node(chapters.get(to));
      nodes.set(to, child);
      parent.children.push(child);
      queue.push(to);
    }
  }
  const rest = story.chapters.filter((c) => !nodes.has(c.id) && visible(c.id)).map(node);
  const reachable = reachableFrom(story.start_chapter_id, chapters);
  return {
    root: nodes.get(start.id),
    others: rest.filter((n) => reachable.has(n.id)),
    unreachable: showAll ? rest.filter((n) => !reachable.has(n.id)) : [],
    shown: nodes.size + rest.length,
    total: chapters.size,
  };
}

function reachableFrom(startId, chapters) {
  const found = new Set();
  const stack = [startId];
  while (stack.length) {
    const id = stack.pop();
    if (found.has(id) || !chapters.has(id)) continue;
    found.add(id);
    for (const choice of chapters.get(id).choices || []) stack.push(choice.chapter_id);
  }
  return found;
}

/** Which chapters the drawing (the wide screen's SVG) shows: every one with showAll, else the visited ones. */
export function shownIds(story, { visited = [], showAll = false, here = null } = {}) {
  if (showAll) return new Set(story.chapters.map((c) => c.id));
  return new Set([story.start_chapter_id, ...visited, ...(here ? [here] : [])]);
}
