// Magnetic Poetry: a poem as text, pure (no DOM): the magnets in reading order, rows as lines. Suffix magnets
// ("-ing", "-ed", "-s", "-ly", "-er", "-est") join the word before them by English spelling: dance+ing → dancing,
// run+ing → running, happy+ly → happily, try+ed → tried.

// Words stressed on their last syllable double its consonant like one-syllable words (forgetting).
const STRESSED_LAST = new Set([
  'begin',
  'forget',
  'regret',
  'admit',
  'commit',
  'permit',
  'submit',
  'occur',
  'prefer',
  'refer',
  'control',
  'compel',
  'equip',
  'upset',
  'forbid',
]);
const ES_AFTER_O = new Set(['go', 'do', 'echo', 'hero', 'potato', 'tomato', 'veto', 'torpedo', 'volcano']);
const LY = { true: 'truly', due: 'duly', whole: 'wholly', shy: 'shyly', sly: 'slyly', dry: 'dryly', public: 'publicly' };

/** One vowel between consonants at the end of a one-syllable (or end-stressed) word: run, stop, forget. */
function doubles(word) {
  const plain = word.replace(/qu/g, 'q'); // "qu" sounds as one consonant: quit → quitting
  if (STRESSED_LAST.has(word)) return true;
  return /^[^aeiouy]*[aeiou][^aeiouwxy]$/.test(plain);
}

const consonantY = (w) => /[^aeiou]y$/.test(w);

/** `word` with `suffix` (without its hyphen) joined by English spelling. Keeps the word's capitals. */
export function joinSuffix(word, suffix) {
  const w = word.toLowerCase();
  const s = suffix.toLowerCase();
  const keep = (cut, add) => word.slice(0, word.length - cut) + add;
  if (!/^[a-z]+$/.test(w) || !/^[a-z]+$/.test(s)) return word + suffix;
  switch (s) {
    case 'ing':
      if (w.endsWith('ie')) return keep(2, 'ying');
      if (w.endsWith('e') && w.length > 2 && !/[eoy]e$/.test(w)) return keep(1, 'ing');
      if (doubles(w)) return word + w.at(-1) + 'ing';
      return word + 'ing';
    case 'ed':
    case 'er':
    case 'est':
      if (w.endsWith('e')) return keep(1, s);
      if (consonantY(w)) return keep(1, `i${s}`);
      if (doubles(w)) return word + w.at(-1) + s;
      return word + s;
    case 's':
      if (/(s|x|z|ch|sh)$/.test(w) || ES_AFTER_O.has(w)) return word + 'es';
      if (consonantY(w)) return keep(1, 'ies');
      return word + 's';
    case 'ly':
      if (LY[w]) return LY[w];
      if (consonantY(w)) return keep(1, 'ily');
      if (/[^aeiou]le$/.test(w)) return keep(1, 'y');
      if (w.endsWith('ll')) return word + 'y';
      if (w.endsWith('ic')) return word + 'ally';
      return word + 'ly';
    default:
      return word + suffix;
  }
}

export const isSuffix = (word) => /^-\p{L}/u.test(String(word));

/**
 * The poem's lines as text: `rows` is reading order ([[word, …], …], from readingOrder); a suffix
 * magnet joins the word before it on its row (a suffix first on its row stays as it is).
 */
export function poemLines(rows) {
  return rows
    .map((row) => {
      const words = [];
      for (const raw of row) {
        const word = String(raw);
        if (isSuffix(word) && words.length && !isSuffix(words[words.length - 1])) {
          words[words.length - 1] = joinSuffix(words[words.length - 1], word.slice(1));
        } else {
          words.push(word);
        }
      }
      return words.join(' ');
    })
    .filter((line) => line.length);
}

/** The whole poem as text, one line per row. */
export const poemText = (rows) => poemLines(rows).join('\n');

/** The words in reading order, one array per row: centres within half a magnet height share a row; left to right. */
export function readingOrder(magnets, { magnetHeight } = {}) {
  const items = magnets.map((magnet) => {
    const height = Number(magnet.height ?? magnetHeight ?? 0) || 0;
    return { word: magnet.word, x: Number(magnet.x) || 0, centre: (Number(magnet.y) || 0) + height / 2, height };
  });
  items.sort((a, b) => a.centre - b.centre || a.x - b.x);
  const rows = [];
  let row = null;
  for (const item of items) {
    const tolerance = item.height / 2 || 1e-9;
    if (row && Math.abs(item.centre - row.centre) <= tolerance) {
      row.items.push(item);
      row.centre += (item.centre - row.centre) / row.items.length; // running mean keeps long rows from drifting
    } else {
      row = { centre: item.centre, items: [item] };
      rows.push(row);
    }
  }
  return rows.map((r) => r.items.sort((a, b) => a.x - b.x).map((item) => item.word));
}

/** The poem's lines from its magnets as drawn ([{word, x, y, h}] in px, as Board#snapshot() gives them). */
export const linesOf = (items) => poemLines(readingOrder(items.map(({ word, x, y, h }) => ({ word, x, y, height: h }))));
