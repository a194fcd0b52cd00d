// Magnetic Poetry: the page's own DOM helpers, beside the shared ones of ../js/dom.js it passes on.
import { make } from '../js/dom.js';

export { $, make, announce, confirmDialog } from '../js/dom.js';

/** Copies text to the clipboard (with the old way as a fallback); resolves whether it worked. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = make('textarea', { className: 'visually-hidden', readonly: true, 'aria-hidden': 'true' });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

const sheets = new Map();
/** Adds a stylesheet of this folder (what a module loaded on demand shows); resolves once it applies, or failed. */
export function stylesheet(name) {
  if (!sheets.has(name)) {
    sheets.set(
      name,
      new Promise((resolve) => {
        const link = make('link', { rel: 'stylesheet', href: new URL(name, import.meta.url).pathname });
        link.onload = link.onerror = resolve;
        document.head.append(link);
      }),
    );
  }
  return sheets.get(name);
}

const segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/** Characters as a person counts them (grapheme clusters, so an emoji is one), like the server. */
export function wordLength(text) {
  if (!segmenter) return [...text].length;
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
}
