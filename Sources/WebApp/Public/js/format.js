// Trove shared wording helpers for every app: pure, no DOM (node --test tests/js/ runs them).

/** A whole number as people read it: 12,345. */
export const formatNumber = (n) => new Intl.NumberFormat('en').format(n);

const graphemes = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/** Characters as a person counts them (grapheme clusters, so an accented letter or an emoji is one), like the server. */
export function characterCount(text) {
  if (!graphemes) return [...text].length;
  let count = 0;
  for (const _ of graphemes.segment(text)) count += 1;
  return count;
}

/** "1 story", "2 stories", "12,000 cities": the count and the noun in the right number. */
export const plural = (n, one, many = `${one}s`) => `${formatNumber(n)} ${n === 1 ? one : many}`;
