// Magnetic Poetry: the board on screen. Draws the magnets of `board.data` (the JSON board: positions are
// fractions of the board, sizes follow its width); when editable, magnets are dragged (mouse, finger,
// pen), rotated (handle or two-finger twist), nudged with keys and removed. The page hears of each change
// before (`onBefore(key)`, for undo) and after (`onChange()`, to save).
import { layoutMagnets, readingOrder } from './layout.js';

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
  constructor(element, { editable = false, onBefore = () => {}, onChange = () => {}, onSelect = () => {} } = {}) {
    this.el = element;
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
    new ResizeObserver(() => this.placeTools()).observe(element);
  }

  // ---------- Drawing ----------

  /** Shows `data` (a board), replacing every magnet; `animate` flies them in. */
  load(data, { animate = false } = {}) {
    this.data = data;
    this.applyStyle();
    for (const node of this.nodes.values()) node.remove();
    this.nodes.clear();
    for (const magnet of data.magnets) this.nodes.set(magnet.id, this.createNode(magnet));
    this.el.append(...this.nodes.values());
    if (this.tools) this.el.append(this.tools); // keeps the tools last
    if (this.selected && !this.nodes.has(this.selected)) this.select(null);
    else this.placeTools();
    if (animate) this.flyIn([...this.nodes.values()]);
  }

  applyStyle() {
    const { font, fontScale } = this.data;
    for (const name of Object.keys(FONTS)) this.el.classList.toggle(`pm-font-${name}`, name === font);
    this.el.style.setProperty('--pm-scale', String(fontScale));
    this.placeTools();
  }

  createNode(magnet) {
    const node = document.createElement('div');
    node.className = 'pm-magnet';
    node.dataset.id = magnet.id;
    node.textContent = ` ${magnet.word} `;
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
    node.style.left = `${magnet.x * 100}%`;
    node.style.top = `${magnet.y * 100}%`;
    node.style.rotate = magnet.rotation ? `${magnet.rotation}deg` : '';
    node.style.zIndex = String(magnet.z);
  }

  magnet(id) {
    return this.data && this.data.magnets.find((m) => m.id === id);
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
      return { word: m.word, x: m.x * width, y: m.y * height, w: node.offsetWidth, h: node.offsetHeight, rotation: m.rotation, z: m.z };
    });
    const fontSize = parseFloat(getComputedStyle(this.nodes.values().next().value || this.el).fontSize);
    return { width, height, items, fontSize, family: FONTS[this.data.font] || FONTS.serif };
  }

  /** The magnets in reading order, one array per row: [{word, x, y, w, h, …}] in px. */
  rows() {
    const items = this.snapshot().items;
    // readingOrder answers words; give it each magnet's index as its "word" to get the magnets back.
    return readingOrder(items.map((i, n) => ({ word: n, x: i.x, y: i.y, height: i.h }))).map((row) => row.map((n) => items[n]));
  }

  /** Marks the magnets whose words are in `words` (a Set of lower-case words). */
  highlight(words) {
    for (const [id, node] of this.nodes) {
      const magnet = this.magnet(id);
      node.classList.toggle('is-rhyme', Boolean(words && magnet && words.has(magnet.word.toLowerCase())));
    }
  }

  // ---------- Fresh boards ----------

  /** Replaces the magnets with `words` packed in rows from the top, shrinking the font if they would not fit. */
  freshLayout(words, { animate = false } = {}) {
    this.data.magnets = words.map((word, index) => ({ id: newId(), word, x: 0, y: 0, rotation: 0, z: index + 1 }));
    this.load(this.data);
    const { width, height } = this.size();
    if (!width || !words.length) return;
    const nodes = this.data.magnets.map((m) => this.nodes.get(m.id));
    const measure = () => ({ widths: nodes.map((n) => n.offsetWidth), magnetHeight: nodes[0].offsetHeight });
    const spacing = (h) => ({ boardWidth: width, boardHeight: height, margin: Math.max(10, width * 0.04), gap: h * 0.3, rowGap: h * 0.3, magnetHeight: h });
    const fits = (m, k) => {
      const places = layoutMagnets(m.widths.map((w) => w * k), { ...spacing(m.magnetHeight * k), boardHeight: Infinity });
      const bottom = Math.max(...places.map((p) => p.y)) + m.magnetHeight * k;
      return bottom <= height - Math.max(10, width * 0.04);
    };
    let m = measure();
    let scale = this.data.fontScale;
    while (scale > 0.7 && !fits(m, scale / this.data.fontScale)) scale = round(scale - 0.05, 2);
    if (scale !== this.data.fontScale) {
      this.data.fontScale = scale;
      this.applyStyle();
      m = measure();
    }
    const places = layoutMagnets(m.widths, spacing(m.magnetHeight));
    this.data.magnets.forEach((magnet, i) => {
      magnet.x = round(clamp(places[i].x / width, 0, 1));
      magnet.y = round(clamp(places[i].y / height, 0, 1));
      this.place(nodes[i], magnet);
    });
    if (animate) this.flyIn(nodes);
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
      // Renumber in the same order so there is room on top again.
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

  /** Adds a magnet for `word` near the top, in front, and selects it. */
  add(word) {
    const { width, height, magnetHeight } = this.size();
    const magnet = { id: newId(), word, x: 0, y: 0, rotation: 0, z: this.topZ() + 1 };
    this.data.magnets.push(magnet);
    const node = this.createNode(magnet);
    this.nodes.set(magnet.id, node);
    this.el.insertBefore(node, this.tools || null);
    const margin = Math.max(10, width * 0.04);
    const spread = Math.max(0, width - node.offsetWidth - 2 * margin);
    magnet.x = round(clamp((margin + Math.random() * spread) / width, 0, 1));
    magnet.y = round(clamp((margin + Math.random() * magnetHeight) / height, 0, 1));
    this.place(node, magnet);
    this.flyIn([node]);
    this.select(magnet.id);
    return magnet;
  }

  /** Removes a magnet with a short shrink and fade. */
  remove(id) {
    const index = this.data.magnets.findIndex((m) => m.id === id);
    if (index < 0) return;
    this.onBefore(`remove:${id}`);
    const node = this.nodes.get(id);
    const hadFocus = node.contains(document.activeElement) || this.tools?.contains(document.activeElement);
    const order = [...this.nodes.keys()];
    this.data.magnets.splice(index, 1);
    this.nodes.delete(id);
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

  move(magnet, xPx, yPx) {
    const node = this.nodes.get(magnet.id);
    const { width, height } = this.size();
    magnet.x = round(clamp(xPx, 0, Math.max(0, width - node.offsetWidth)) / width);
    magnet.y = round(clamp(yPx, 0, Math.max(0, height - node.offsetHeight)) / height);
    this.place(node, magnet);
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
    style.left = `${magnet.x * 100}%`;
    style.top = `${magnet.y * 100}%`;
    style.width = `${node.offsetWidth}px`;
    style.height = `${node.offsetHeight}px`;
    style.rotate = magnet.rotation ? `${magnet.rotation}deg` : '';
    // Near the top edge the tools go below the word, where the board does not cut them off.
    this.tools.classList.toggle('is-below', magnet.y * this.el.clientHeight < node.offsetHeight + 16);
  }

  // ---------- Input ----------

  wire() {
    const el = this.el;
    el.addEventListener('pointerdown', (e) => this.pointerDown(e));
    el.addEventListener('pointermove', (e) => this.pointerMove(e));
    el.addEventListener('pointerup', (e) => this.pointerUp(e, false));
    el.addEventListener('pointercancel', (e) => this.pointerUp(e, true));
    el.addEventListener('lostpointercapture', (e) => this.pointerUp(e, true));
    el.addEventListener('keydown', (e) => this.keyDown(e));
    el.addEventListener('dragstart', (e) => e.preventDefault());
    const rotate = el.querySelector('.pm-rotate');
    const remove = el.querySelector('.pm-delete');
    if (remove) remove.addEventListener('click', () => this.selected && this.remove(this.selected));
    if (rotate) {
      rotate.addEventListener('click', () => {
        if (this.skipClick) { this.skipClick = false; return; }
        const magnet = this.selected && this.magnet(this.selected);
        if (!magnet) return;
        this.onBefore(`rotate:${magnet.id}`);
        this.rotate(magnet, magnet.rotation + 15);
        this.changed();
      });
    }
  }

  pointerDown(e) {
    const target = e.target instanceof Element ? e.target : null;
    if (!target) return;
    // A second finger while a magnet is held twists it.
    if (this.drag && this.drag.kind === 'move' && !this.twist && e.pointerId !== this.drag.pointerId && e.pointerType !== 'mouse') {
      e.preventDefault();
      this.el.setPointerCapture(e.pointerId);
      const magnet = this.magnet(this.drag.id);
      this.twist = { pointerId: e.pointerId, x: e.clientX, y: e.clientY, start: this.angle(e.clientX, e.clientY), from: magnet.rotation };
      return;
    }
    if (this.drag || (e.pointerType === 'mouse' && e.button !== 0)) return;
    if (target.closest('.pm-rotate')) return this.startRotate(e);
    if (target.closest('.pm-tool')) return;
    const node = target.closest('.pm-magnet');
    if (!node || !this.nodes.has(node.dataset.id)) {
      if (!target.closest('.pm-tools')) this.select(null);
      return;
    }
    e.preventDefault(); // no text selection, no compatibility mouse events
    node.focus({ preventScroll: true });
    node.setPointerCapture(e.pointerId);
    const magnet = this.magnet(node.dataset.id);
    const { width, height } = this.size();
    this.drag = {
      kind: 'move', id: magnet.id, node, pointerId: e.pointerId, startX: e.clientX, startY: e.clientY,
      x: e.clientX, y: e.clientY, originX: magnet.x * width, originY: magnet.y * height, moved: false, changed: false,
    };
    this.el.classList.add('is-holding');
  }

  startRotate(e) {
    const magnet = this.selected && this.magnet(this.selected);
    if (!magnet) return;
    e.preventDefault();
    this.skipClick = false;
    e.target.closest('.pm-rotate').setPointerCapture(e.pointerId);
    const { x, y } = this.centre(magnet);
    this.drag = {
      kind: 'rotate', id: magnet.id, pointerId: e.pointerId, cx: x, cy: y, startX: e.clientX, startY: e.clientY,
      start: Math.atan2(e.clientY - y, e.clientX - x), from: magnet.rotation, moved: false, changed: false,
    };
  }

  /** A magnet's centre in client coordinates. */
  centre(magnet) {
    const rect = this.el.getBoundingClientRect();
    const node = this.nodes.get(magnet.id);
    return { x: rect.left + this.el.clientLeft + magnet.x * this.el.clientWidth + node.offsetWidth / 2, y: rect.top + this.el.clientTop + magnet.y * this.el.clientHeight + node.offsetHeight / 2 };
  }

  angle(x, y) {
    return Math.atan2(y - this.drag.y, x - this.drag.x);
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
    if (drag.kind === 'rotate') {
      this.touch(drag);
      let degrees = drag.from + ((Math.atan2(e.clientY - drag.cy, e.clientX - drag.cx) - drag.start) * 180) / Math.PI;
      const snapped = Math.round(degrees / 90) * 90;
      if (Math.abs(degrees - snapped) < 3) degrees = snapped;
      this.rotate(magnet, degrees);
      return;
    }
    if (!drag.changed) {
      this.touch(drag);
      this.toFront(magnet);
      drag.node.classList.add('is-dragging');
    }
    drag.x = e.clientX;
    drag.y = e.clientY;
    this.move(magnet, drag.originX + e.clientX - drag.startX, drag.originY + e.clientY - drag.startY);
    if (this.twist) this.applyTwist(magnet);
  }

  applyTwist(magnet) {
    const twist = this.twist;
    this.touch(this.drag);
    const now = Math.atan2(twist.y - this.drag.y, twist.x - this.drag.x);
    this.rotate(magnet, twist.from + ((now - twist.start) * 180) / Math.PI);
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
    drag.node?.classList.remove('is-dragging');
    if (drag.changed) {
      if (drag.kind === 'rotate') this.skipClick = true;
      this.changed();
    } else if (!cancelled && drag.kind === 'move') {
      this.select(this.selected === drag.id ? null : drag.id);
    }
  }

  keyDown(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const onRotate = e.target.closest?.('.pm-rotate');
    const node = e.target.closest?.('.pm-magnet');
    const magnet = onRotate ? this.magnet(this.selected) : node && this.magnet(node.dataset.id);
    if (!magnet) return;
    const { width, height } = this.size();
    const step = e.shiftKey ? 0.05 : 0.01;
    const nudges = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (onRotate && (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      e.preventDefault();
      this.onBefore(`rotate:${magnet.id}`);
      this.rotate(magnet, magnet.rotation + (e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -5 : 5));
      this.changed();
    } else if (onRotate) {
      return;
    } else if (nudges[e.key]) {
      e.preventDefault();
      const [dx, dy] = nudges[e.key];
      this.onBefore(`nudge:${magnet.id}`);
      this.move(magnet, magnet.x * width + dx * step * width, magnet.y * height + dy * step * height);
      this.changed();
    } else if (e.key === '[' || e.key === ']') {
      e.preventDefault();
      this.onBefore(`rotate:${magnet.id}`);
      this.rotate(magnet, magnet.rotation + (e.key === '[' ? -15 : 15));
      this.changed();
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      this.remove(magnet.id);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.select(this.selected === magnet.id ? null : magnet.id);
    } else if (e.key === 'Escape' && this.selected) {
      this.select(null);
    }
  }

  /** A subtle tilt of the magnets' shadows with the device, where it reports its orientation. */
  tiltWithDevice() {
    if (reducedMotion() || !('DeviceOrientationEvent' in window)) return;
    let frame = 0;
    window.addEventListener('deviceorientation', (e) => {
      if (e.beta === null || e.gamma === null || frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        this.el.style.setProperty('--pm-sx', `${clamp(e.gamma / 30, -1, 1) * 3}px`);
        this.el.style.setProperty('--pm-sy', `${clamp((e.beta - 45) / 30, -1, 1) * 3}px`);
      });
    });
  }
}
