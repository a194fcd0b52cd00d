// Choose Your Destiny: small DOM helpers shared by the hub and the reader.
import { $, announce } from '../js/dom.js';

export { $, make, confirmDialog, busy, reducedMotion } from '../js/dom.js';

const TAGS = new Set(['p', 'em', 'strong', 'br']);

/** DOM nodes for a tree from text.js: text nodes and the few allowed elements, nothing parsed as HTML. */
export function render(nodes) {
  return nodes.map((node) => {
    if (typeof node === 'string') return document.createTextNode(node);
    const element = document.createElement(TAGS.has(node.tag) ? node.tag : 'span');
    if (node.children) element.append(...render(node.children));
    return element;
  });
}

/** A polite announcement for screen readers. */
export const say = (message) => announce('st-announce', message);
