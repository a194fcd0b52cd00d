// Magnetic Poetry: the page's own DOM helpers, beside the shared ones of ../js/dom.js it passes on.
import { make } from '../js/dom.js';

export { $, make, announce, confirmDialog, copyText, reducedMotion, scrollBehavior } from '../js/dom.js';

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
