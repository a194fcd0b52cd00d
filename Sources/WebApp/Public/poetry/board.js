// Magnetic Poetry: the writing surface. Magnets are stored at fractions of the board and drawn there, or at the
// nearest free place where that would overlap another (layout.js `nudge`; the stored place stays). Dragged,
// dropped on the tray to go back; the page hears of changes before (`onBefore`, undo) and after (`onChange`).
import { freeSpot, nudge, overlaps, placeNear, readingOrder } from './layout.js';

export const FONTS = {
  serif: "Georgia, 'Times New Roman', serif",
  sans: 'system-ui, sans-serif',
  mono: 'ui-monospace, Menlo, Consolas, monospace',
  rounded: "ui-rounded, 'Arial Rounded MT Bold', system-ui, sans-serif",
  typewriter: "'American Typewriter', 'Courier New', monospace",
};
export const DEFAULT_SCALE = 1.1;
export const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));
const round = (value, digits = 5) => Math.round(value * 10 ** digits) / 10 ** digits;
const normalise = (deg) => round((((deg + 180) % 360) + 360) % 360 - 180, 1);
const MAX_Z = 100000;

/** A short random id (crypto.randomUUID needs a secure context). */
export function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `m${[...bytes].map((b) => b.toString(36).padStart(2, '0')).join('')}`;
}

export class Board {
  constructor(element, { editable = false, tray = null, onBefore = () => {}, onChange = () => {}, onSelect = () => {} } = {}) {
    this.el = element;
    this.tray = tray; // where a magnet dropped goes back to the tray
    this.shown = new Map(); // id → {x, y, w, h}: where each magnet is drawn, in px
    this.last = null; // the id of the magnet placed last: new words go next to it
    this.editable = editable;
    this.onBefore = onBefore;
    this.onChange = onChange;
    this.onSelect = onSelect;
    this.data = null;
    this.nodes = new Map(); // id → element
    this.selected = null;
    this.drag = null;
    this.twist = null;
    this.tools = element.querySelector('.pm-tools');
    if (editable) this.wire();
    new ResizeObserver(() => { if (this.data && !this.drag) this.reflow(); }).observe(element);
  }

  // ---------- Drawing ----------

  /** Shows `data` (a board), replacing every magnet; `animate` flies them in. */
  load(data, { animate = false } = {}) {
    this.data = data;
    this.applyStyle({ reflow: false });
    for (const node of this.nodes.values()) node.remove();
    this.nodes.clear();
    for (const magnet of data.magnets) this.nodes.set(magnet.id, this.createNode(magnet));
    this.el.append(...this.nodes.values());
    if (this.tools) this.el.append(this.tools); // keeps the tools last
    if (this.last && !this.nodes.has(this.last)) this.last = null;
    this.reflow();
    if (data.magnets.length) this.gestures();
    if (this.selected && !this.nodes.has(this.selected)) this.select(null);
    if (animate) this.flyIn([...this.nodes.values()]);
  }

  /** Font and size: the magnets are measured again and drawn apart where they would overlap. */
  applyStyle({ reflow = true } = {}) {
    const { font, fontScale } = this.data;
    for (const name of Object.keys(FONTS)) this.el.classList.toggle(`pm-font-${name}`, name === font);
    this.el.style.setProperty('--pm-scale', String(fontScale));
    if (reflow) this.reflow();
  }

  /** Draws every magnet at its stored place, or the nearest free one where that would overlap another. */
  reflow() {
    if (!this.data) return;
    const { width, height } = this.size();
    const magnets = this.data.magnets;
    if (magnets.some((m) => !this.nodes.has(m.id))) return; // drawn by load(), which reflows
    const boxes = magnets.map((m) => {
      const node = this.nodes.get(m.id);
      return { x: m.x * width, y: m.y * height, w: node.offsetWidth, h: node.offsetHeight };
    });
    const places = width && height ? nudge(boxes, { width, height }) : boxes;
    this.shown.clear();
    magnets.forEach((m, i) => {
      const box = { ...boxes[i], ...places[i] };
      this.shown.set(m.id, box);
      this.draw(this.nodes.get(m.id), box);
    });
    this.placeTools();
  }

  draw(node, box) {
    node.style.left = `${box.x}px`;
    node.style.top = `${box.y}px`;
  }

  createNode(magnet) {
    const node = document.createElement('div');
    node.className = 'pm-magnet';
    node.dataset.id = magnet.id;
    const text = document.createElement('span');
    text.className = 'pm-word';
    text.textContent = ` ${magnet.word} `;
    node.append(text);
    if (this.editable) {
      node.tabIndex = 0;
      node.setAttribute('role', 'button');
      node.setAttribute('aria-label', magnet.word);
      node.setAttribute('aria-describedby', 'board-hint');
    } else {
      node.setAttribute('aria-hidden', 'true');
    }
    this.place(node, magnet);
    return node;
  }

  place(node, magnet) {
    node.style.setProperty('--pm-rot', `${magnet.rotation || 0}deg`);
    node.style.rotate = magnet.rotation ? `${magnet.rotation}deg` : '';
    node.style.zIndex = String(magnet.z);
  }

  magnet(id) {
    return this.data && this.data.magnets.find((m) => m.id === id);
  }

  /** Rotating, keys and tilt (board-gestures.js) load with the first magnet. */
  gestures() {
    if (!this.editable || this.gesturesLoading) return;
    this.gesturesLoading = import('./board-gestures.js').then((m) => {
      Object.assign(Board.prototype, m.gestures);
      this.tiltWithDevice();
    });
  }

  /** Board size and a magnet's height, in CSS px. */
  size() {
    const sample = this.nodes.values().next().value;
    return { width: this.el.clientWidth, height: this.el.clientHeight, magnetHeight: sample ? sample.offsetHeight : 0 };
  }

  /** Magnets as drawn: px boxes, for reading order and the picture. */
  snapshot() {
    const { width, height } = this.size();
    const items = this.data.magnets.map((m) => {
      const node = this.nodes.get(m.id);
      const at = this.shown.get(m.id) || { x: m.x * width, y: m.y * height };
      return { word: m.word, x: at.x, y: at.y, w: node.offsetWidth, h: node.offsetHeight, rotation: m.rotation, z: m.z };
    });
    const sample = this.nodes.values().next().value;
    const fontSize = sample ? parseFloat(getComputedStyle(sample).fontSize) : 16;
    return { width, height, items, fontSize, family: FONTS[this.data.font] || FONTS.serif };
  }

  /** The magnets in reading order, one array per row: [{word, x, y, w, h, …}] in px. */
  rows() {
    const items = this.snapshot().items;
    return readingOrder(items.map((i, n) => ({ word: n, x: i.x, y: i.y, height: i.h }))).map((row) => row.map((n) => items[n]));
  }

  /** Marks the magnets whose words are in `words` (a Set of lower-case words). */
  highlight(words) {
    for (const [id, node] of this.nodes) {
      const magnet = this.magnet(id);
      node.classList.toggle('is-rhyme', Boolean(words && magnet && words.has(magnet.word.toLowerCase())));
    }
  }

  /** The seed's entrance: from random places at half opacity to their own. */
  flyIn(nodes) {
    if (reducedMotion() || !nodes.length || typeof nodes[0].animate !== 'function') return;
    const { width, height } = this.size();
    for (const node of nodes) {
      const dx = Math.random() * width - node.offsetLeft;
      const dy = Math.random() * height - node.offsetTop;
      node.animate(
        [{ translate: `${dx}px ${dy}px`, opacity: 0.5 }, { translate: '0 0', opacity: 1 }],
        { duration: 700 + Math.random() * 500, easing: 'cubic-bezier(0.2, 0.7, 0.2, 1)', fill: 'backwards' },
      );
    }
  }

  // ---------- Changes ----------

  changed() {
    this.placeTools();
    this.onChange();
  }

  topZ() {
    let top = 0;
    for (const m of this.data.magnets) top = Math.max(top, m.z);
    if (top >= MAX_Z) {
      [...this.data.magnets].sort((a, b) => a.z - b.z).forEach((m, i) => {
        m.z = i + 1;
        this.place(this.nodes.get(m.id), m);
      });
      top = this.data.magnets.length;
    }
    return top;
  }

  toFront(magnet) {
    if (magnet.z === this.topZ() && this.data.magnets.filter((m) => m.z === magnet.z).length === 1) return;
    magnet.z = this.topZ() + 1;
    this.place(this.nodes.get(magnet.id), magnet);
  }

  /** The boxes drawn on the board, but the magnet `except`. */
  boxesBut(except) {
    return [...this.shown].filter(([id]) => id !== except).map(([, box]) => box);
  }

  /** Adds a magnet for `word` in front: dropped at `at` (px) or next to the last one placed, never on another; shown with a glow. */
  add(word, at = null) {
    const { width, height } = this.size();
    const magnet = { id: newId(), word, x: 0, y: 0, rotation: 0, z: this.topZ() + 1 };
    this.data.magnets.push(magnet);
    const node = this.createNode(magnet);
    this.nodes.set(magnet.id, node);
    this.el.insertBefore(node, this.tools || null);
    const size = { w: node.offsetWidth, h: node.offsetHeight };
    const room = { width, height, gap: Math.round(size.h * 0.25), margin: Math.max(8, Math.round(width * 0.03)) };
    const others = this.boxesBut(magnet.id);
    const spot = at
      ? freeSpot(others, size, { ...room, gap: 0, margin: 0, prefer: [at], target: at })
      : placeNear(others, size, this.last && this.shown.get(this.last), { ...room, lineStart: this.lineStart(this.last) });
    this.store(magnet, spot.x, spot.y);
    this.shown.set(magnet.id, { x: spot.x, y: spot.y, ...size });
    this.draw(node, spot);
    this.last = magnet.id;
    this.reveal(node);
    this.gestures();
    return magnet;
  }

  /** The x of the first word on the line of magnet `id` (the board's margin when there is none). */
  lineStart(id) {
    const last = id && this.shown.get(id);
    if (!last) return undefined;
    const mid = last.y + last.h / 2;
    const line = [...this.shown.values()].filter((b) => Math.abs(b.y + b.h / 2 - mid) <= last.h / 2);
    return Math.min(...line.map((b) => b.x));
  }

  /** Scrolls a magnet into view and makes it glow for a moment. */
  reveal(node) {
    const box = node.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) node.scrollIntoView({ block: 'center', behavior: reducedMotion() ? 'auto' : 'smooth' });
    node.classList.remove('is-new');
    void node.offsetWidth; // restarts the glow
    node.classList.add('is-new');
    clearTimeout(node.glow);
    node.glow = setTimeout(() => node.classList.remove('is-new'), 1600);
  }

  /** Stores a magnet's place from px (its top-left corner), kept inside the board. */
  store(magnet, xPx, yPx) {
    const node = this.nodes.get(magnet.id);
    const { width, height } = this.size();
    magnet.x = round(clamp(xPx, 0, Math.max(0, width - node.offsetWidth)) / width);
    magnet.y = round(clamp(yPx, 0, Math.max(0, height - node.offsetHeight)) / height);
  }

  /** After a drop: a magnet let go on another moves to the nearest free place. */
  settle(magnet) {
    const box = this.shown.get(magnet.id);
    if (!box) return;
    const others = this.boxesBut(magnet.id);
    if (!others.some((b) => overlaps(box, b))) return;
    const { width, height } = this.size();
    const spot = freeSpot(others, box, { width, height, target: box });
    if (!spot.free) return;
    this.move(magnet, spot.x, spot.y);
  }

  /** Takes a magnet off the board (back to the tray), with a short shrink and fade. */
  remove(id, { undoKey = true } = {}) {
    const index = this.data.magnets.findIndex((m) => m.id === id);
    if (index < 0) return;
    if (undoKey) this.onBefore(`remove:${id}`);
    const node = this.nodes.get(id);
    const hadFocus = node.contains(document.activeElement) || this.tools?.contains(document.activeElement);
    const order = [...this.nodes.keys()];
    this.data.magnets.splice(index, 1);
    this.nodes.delete(id);
    this.shown.delete(id);
    if (this.last === id) this.last = null;
    if (this.selected === id) this.select(null);
    node.removeAttribute('tabindex');
    node.classList.add('is-leaving');
    if (reducedMotion() || typeof node.animate !== 'function') node.remove();
    else node.animate([{ scale: 1, opacity: 1 }, { scale: 0.2, opacity: 0 }], { duration: 220, easing: 'ease-in' }).finished.then(() => node.remove(), () => node.remove());
    if (hadFocus) {
      const next = order[order.indexOf(id) + 1] || order[order.indexOf(id) - 1];
      (this.nodes.get(next) || this.el).focus({ preventScroll: true });
    }
    this.changed();
  }

  /** Moves a magnet to px (its top-left corner, kept inside the board): stored and drawn there. */
  move(magnet, xPx, yPx) {
    const node = this.nodes.get(magnet.id);
    const { width, height } = this.size();
    this.store(magnet, xPx, yPx);
    const box = { x: magnet.x * width, y: magnet.y * height, w: node.offsetWidth, h: node.offsetHeight };
    this.shown.set(magnet.id, box);
    this.draw(node, box);
    this.last = magnet.id;
    if (magnet.id === this.selected) this.placeTools();
  }

  rotate(magnet, degrees) {
    magnet.rotation = normalise(degrees);
    this.place(this.nodes.get(magnet.id), magnet);
    if (magnet.id === this.selected) this.placeTools();
  }

  // ---------- Selection and its tools ----------

  select(id) {
    if (this.selected === id) return;
    if (this.selected) this.nodes.get(this.selected)?.classList.remove('is-selected');
    this.selected = id && this.nodes.has(id) ? id : null;
    if (this.selected) this.nodes.get(this.selected).classList.add('is-selected');
    this.placeTools();
    this.onSelect(this.selected ? this.magnet(this.selected) : null);
  }

  placeTools() {
    if (!this.tools) return;
    const magnet = this.selected && this.magnet(this.selected);
    const node = magnet && this.nodes.get(magnet.id);
    this.tools.hidden = !node;
    if (!node) return;
    const style = this.tools.style;
    const at = this.shown.get(magnet.id) || { x: 0, y: 0 };
    style.left = `${at.x}px`;
    style.top = `${at.y}px`;
    style.setProperty('--pm-rot', `${magnet.rotation || 0}deg`);
    style.width = `${node.offsetWidth}px`;
    style.height = `${node.offsetHeight}px`;
    style.rotate = magnet.rotation ? `${magnet.rotation}deg` : '';
    this.tools.classList.toggle('is-below', at.y < node.offsetHeight + 16);
  }

  // ---------- Input ----------

  wire() {
    const el = this.el;
    el.addEventListener('pointerdown', (e) => this.pointerDown(e));
    el.addEventListener('pointermove', (e) => this.pointerMove(e));
    el.addEventListener('pointerup', (e) => this.pointerUp(e, false));
    el.addEventListener('pointercancel', (e) => this.pointerUp(e, true));
    el.addEventListener('lostpointercapture', (e) => this.pointerUp(e, true));
    el.addEventListener('keydown', (e) => this.keyDown?.(e));
    el.addEventListener('dragstart', (e) => e.preventDefault());
    const rotate = el.querySelector('.pm-rotate');
    const remove = el.querySelector('.pm-delete');
    if (remove) remove.addEventListener('click', () => this.selected && this.remove(this.selected));
    if (rotate) rotate.addEventListener('click', () => this.rotateClick?.());
  }

  pointerDown(e) {
    const target = e.target instanceof Element ? e.target : null;
    if (!target) return;
    if (this.drag && this.drag.kind === 'move' && !this.twist && this.angle && e.pointerId !== this.drag.pointerId && e.pointerType !== 'mouse') {
      e.preventDefault();
      this.el.setPointerCapture(e.pointerId);
      const magnet = this.magnet(this.drag.id);
      this.twist = { pointerId: e.pointerId, x: e.clientX, y: e.clientY, start: this.angle(e.clientX, e.clientY), from: magnet.rotation };
      return;
    }
    if (this.drag || (e.pointerType === 'mouse' && e.button !== 0)) return;
    if (target.closest('.pm-rotate')) return this.startRotate?.(e);
    if (target.closest('.pm-tool')) return;
    const node = this.pick(e.clientX, e.clientY) || target.closest('.pm-magnet');
    if (!node || !this.nodes.has(node.dataset.id)) {
      if (!target.closest('.pm-tools')) this.select(null);
      return;
    }
    e.preventDefault(); // no text selection, no compatibility mouse events
    node.focus({ preventScroll: true });
    node.setPointerCapture(e.pointerId);
    const magnet = this.magnet(node.dataset.id);
    const at = this.shown.get(magnet.id);
    this.drag = {
      kind: 'move', id: magnet.id, node, pointerId: e.pointerId, startX: e.clientX, startY: e.clientY,
      x: e.clientX, y: e.clientY, originX: at.x, originY: at.y, moved: false, changed: false,
    };
    this.el.classList.add('is-holding');
  }

  /** Of the magnets whose touch area (44 x 44 px at least) is under (x, y): the top one whose tile is under it, else the top one. */
  pick(x, y) {
    const hits = [...new Set(document.elementsFromPoint(x, y).map((n) => n.closest?.('.pm-magnet')))].filter((n) => n && this.nodes.get(n.dataset.id) === n);
    const onTile = (n) => {
      const r = n.getBoundingClientRect();
      return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
    };
    return hits.find(onTile) || hits[0] || null; // elementsFromPoint lists what is drawn on top first
  }

  /** Whether a point (client px) is over the tray. */
  overTray(x, y) {
    if (!this.tray) return false;
    const r = this.tray.getBoundingClientRect();
    return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  }

  touch(drag) {
    if (drag.changed) return;
    drag.changed = true;
    this.onBefore(`${drag.kind}:${drag.id}:${performance.now()}`);
  }

  pointerMove(e) {
    const drag = this.drag;
    if (!drag) return;
    const magnet = this.magnet(drag.id);
    if (!magnet) return;
    if (this.twist && e.pointerId === this.twist.pointerId) {
      this.twist.x = e.clientX;
      this.twist.y = e.clientY;
      this.applyTwist(magnet);
      return;
    }
    if (e.pointerId !== drag.pointerId) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.startX, e.clientY - drag.startY) < 4) return;
    drag.moved = true;
    if (drag.kind === 'rotate') return this.rotateDrag(drag, magnet, e);
    if (!drag.changed) {
      this.touch(drag);
      this.toFront(magnet);
      drag.node.classList.add('is-dragging');
    }
    drag.x = e.clientX;
    drag.y = e.clientY;
    const back = this.overTray(e.clientX, e.clientY);
    this.tray?.classList.toggle('is-drop-target', back);
    drag.node.classList.toggle('is-going-back', back);
    this.move(magnet, drag.originX + e.clientX - drag.startX, drag.originY + e.clientY - drag.startY);
    if (this.twist) this.applyTwist(magnet);
  }

  pointerUp(e, cancelled) {
    if (this.twist && e.pointerId === this.twist.pointerId) {
      this.twist = null;
      return;
    }
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointerId) return;
    this.drag = null;
    this.twist = null;
    this.el.classList.remove('is-holding');
    drag.node?.classList.remove('is-dragging', 'is-going-back');
    this.tray?.classList.remove('is-drop-target');
    if (drag.changed && drag.kind === 'move' && !cancelled && this.overTray(e.clientX, e.clientY)) {
      this.remove(drag.id, { undoKey: false }); // dropped on the tray: the word goes back there
    } else if (drag.changed) {
      if (drag.kind === 'rotate') this.skipClick = true;
      else this.settle(this.magnet(drag.id));
      this.changed();
    } else if (!cancelled && drag.kind === 'move') {
      this.select(this.selected === drag.id ? null : drag.id);
    }
  }

}
