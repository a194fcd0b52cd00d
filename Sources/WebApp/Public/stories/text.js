// Choose Your Destiny: a chapter's text as a tree of node descriptions (no DOM, tested with node).
// Paragraphs are separated by blank lines; inside them only *emphasis* and **strong** are read
// (as CommonMark does: an opening mark is not followed by a space, a closing one not preceded by
// one), and a single line break stays a line break. Everything else is text, never HTML.
//
// A node is a string (text), {tag: 'br'}, or {tag: 'p' | 'em' | 'strong', children: [nodes]}.

/** The paragraphs of a chapter's text, trimmed, empty ones dropped. */
export function paragraphs(text) {
  return String(text ?? '')
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** A paragraph's inline nodes. */
export function inline(text) {
  const nodes = [];
  const lines = String(text).split('\n');
  lines.forEach((line, i) => {
    if (i > 0) nodes.push({ tag: 'br' });
    nodes.push(...emphasis(line));
  });
  return merge(nodes);
}

/** The chapter's text as paragraph nodes. Takes the API's paragraphs when given, else splits the text. */
export function chapterTree(textOrParagraphs) {
  const list = Array.isArray(textOrParagraphs) ? textOrParagraphs : paragraphs(textOrParagraphs);
  return list.map((p) => ({ tag: 'p', children: inline(p) }));
}

function emphasis(text) {
  const out = [];
  let plain = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '*') {
      const mark = text.startsWith('**', i) ? '**' : '*';
      const close = closing(text, i + mark.length, mark);
      if (close > 0) {
        if (plain) out.push(plain);
        plain = '';
        out.push({ tag: mark === '**' ? 'strong' : 'em', children: merge(emphasis(text.slice(i + mark.length, close))) });
        i = close + mark.length;
        continue;
      }
      plain += mark;
      i += mark.length;
      continue;
    }
    plain += text[i];
    i += 1;
  }
  if (plain) out.push(plain);
  return out;
}

/** Where the mark opened at `from` closes, or -1: not after a space, not empty, same kind of mark. */
function closing(text, from, mark) {
  if (from >= text.length || /\s/.test(text[from])) return -1;
  let i = from;
  while (i < text.length) {
    const at = text.indexOf(mark, i);
    if (at < 0) return -1;
    const single = mark === '*';
    // A single mark must not be half of a double one (that belongs to a nested **strong**).
    if (single && text[at + 1] === '*') {
      const inner = closing(text, at + 2, '**');
      i = inner > 0 ? inner + 2 : at + 2;
      continue;
    }
    if (at > from && !/\s/.test(text[at - 1])) return at;
    i = at + mark.length;
  }
  return -1;
}

/** Neighbouring strings joined into one. */
function merge(nodes) {
  const out = [];
  for (const node of nodes) {
    if (typeof node === 'string' && typeof out[out.length - 1] === 'string') out[out.length - 1] += node;
    else out.push(node);
  }
  return out;
}
