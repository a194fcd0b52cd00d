// Magnetic Poetry: the writing surface. Magnets are stored at fractions of the board and drawn there, each line
// kept whole where a font or size would make its words overlap (typeset.js; the stored place stays). Dragged
// (board-gestures.js, with the first magnet), dropped on the tray to go back; the page hears of changes before
// (`onBefore`, undo) and after (`onChange`).
import { freeSpot, placeNear } from './layout.js';
import { reducedMotion, scrollBehavior } from './dom.js';

export const FONTS = {
  serif: "Georgia, 'Times New Roman', serif",
  sans: 'system-ui, sans-serif',
  mono: 'ui-monospace, Menlo, Consolas, monospace',
  rounded: "ui-rounded, 'Arial Rounded MT Bold', system-ui, sans-serif",
  typewriter: "'American Typewriter', 'Courier New', monospace",
};
export const DEFAULT_SCALE = 1.1;

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));
const round = (value, digits = 5) => Math.round(value * 10 ** digits) / 10 ** digits;
const MAX_Z = 100000;

// A board kept on this device before the API's keys became snake_case (issue 19: a save waiting in the outbox, a
// copy read offline, an undo step) names these three in camelCase; read as they are, its set, size and added words
// would be lost with the next save.
const BEFORE_SNAKE_CASE = { wordSetId: 'word_set_id', fontScale: 'font_scale', extraWords: 'extra_words' };

/** `data`, a board from the server or kept on this device, with the API's keys. */
export function withAPIKeys(data) {
  if (!data || !Object.keys(BEFORE_SNAKE_CASE).some((key) => key in data)) return data;
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [BEFORE_SNAKE_CASE[key] || key, value]));
}

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
    new ResizeObserver(() => {
      if (this.data && !this.drag) this.reflow();
    }).observe(element);
  }

  // ---------- Drawing ----------

  /** Shows `data` (a board), replacing every magnet; `animate` flies them in. */
  load(data, { animate = false } = {}) {
    this.data = data;
    this.keepShape();
    this.applyStyle({ reflow: false });
    for (const node of this.nodes.values()) node.remove();
    this.nodes.clear();
    for (const magnet of data.magnets) this.nodes.set(magnet.id, this.createNode(magnet));
    this.el.append(...this.nodes.values());
    if (this.tools) this.el.append(this.tools); // keeps the tools last
    if (this.last && !this.nodes.has(this.last)) this.last = null;
    this.reflow();
    if (data.magnets.length) this.typesetting();
    if (data.magnets.length) this.gestures();
    if (this.selected && !this.nodes.has(this.selected)) this.select(null);
    if (animate) this.flyIn([...this.nodes.values()]);
  }

  /**
   * In the editor, a poem with words keeps the shape of the board it was written on (its `aspect`), drawn as large
   * as the stage allows (poetry.css `.is-shaped`): on a screen of another shape, a board stretched to it pulled the
   * poem's lines apart (magnets are stored at fractions of the board). An empty board takes the stage's shape.
   */
  keepShape() {
    const aspect = Number(this.data.aspect);
    this.shape = this.editable && this.data.magnets.length && aspect >= 0.25 && aspect <= 4 ? aspect : null;
    const stage = this.el.parentElement;
    stage.classList.toggle('is-shaped', !!this.shape);
    if (this.shape) stage.style.setProperty('--pm-aspect', String(this.shape));
    else stage.style.removeProperty('--pm-aspect');
  }

  /** Font and size: the magnets are measured again and drawn apart where they would overlap. */
  applyStyle({ reflow = true } = {}) {
    const { font, font_scale: scale } = this.data;
    for (const name of Object.keys(FONTS)) this.el.classList.toggle(`pm-font-${name}`, name === font);
    this.el.style.setProperty('--pm-scale', String(scale));
    if (reflow) this.reflow();
  }

  /** Draws every magnet at its stored place, its line kept whole where words would overlap (typeset.js). */
  reflow() {
    if (!this.data) return;
    const { width, height } = this.size();
    const magnets = this.data.magnets;
    if (magnets.some((m) => !this.nodes.has(m.id))) return; // drawn by load(), which reflows
    const boxes = magnets.map((m) => {
      const node = this.nodes.get(m.id);
      return { x: m.x * width, y: m.y * height, w: node.offsetWidth, h: node.offsetHeight };
    });
    const { places, fits } = width && height && this.ts ? this.ts.typeset(boxes, { width, height }) : { places: boxes };
    this.fits = fits;
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

  /** typeset.js, with the first words. */
  typesetting() {
    return (this.loadingTs ??= import('./typeset.js').then((m) => {
      this.ts = m;
      this.reflow();
    }));
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

  /** The board's width over its height, saved with the poem: its published page keeps that shape (public.js). */
  aspect() {
    if (this.shape) return this.shape;
    const { width, height } = this.size();
    return width && height ? round(width / height, 3) : undefined;
  }

  /** Magnets as drawn: px boxes, for reading order (spelling.js `linesOf`) and the picture. */
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
        [
          { translate: `${dx}px ${dy}px`, opacity: 0.5 },
          { translate: '0 0', opacity: 1 },
        ],
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
      [...this.data.magnets]
        .sort((a, b) => a.z - b.z)
        .forEach((m, i) => {
          m.z = i + 1;
          this.place(this.nodes.get(m.id), m);
        });
      top = this.data.magnets.length;
    }
    return top;
  }

  /** The boxes drawn on the board, but the magnet `except`. */
  boxesBut(except) {
    return [...this.shown].filter(([id]) => id !== except).map(([, box]) => box);
  }

  /** Adds `word` in front at `at` (px), or by the selected (else last placed, else last) word within `view` ({top, bottom}: in sight), on no other; glowing. */
  add(word, at = null, view = {}) {
    const { width, height } = this.size();
    const magnet = { id: newId(), word, x: 0, y: 0, rotation: 0, z: this.topZ() + 1 };
    this.data.magnets.push(magnet);
    if (!this.shape) {
      // A poem begun here keeps the shape it is begun on from its first word, as a poem opened again does.
      this.data.aspect = round(width / height, 3);
      this.keepShape();
    }
    const node = this.createNode(magnet);
    this.nodes.set(magnet.id, node);
    this.el.insertBefore(node, this.tools || null);
    const size = { w: node.offsetWidth, h: node.offsetHeight };
    const room = { width, height, gap: Math.round(size.h * 0.25), margin: Math.max(8, Math.round(width * 0.03)) };
    const others = this.boxesBut(magnet.id);
    const ids = [...this.shown.keys()].filter((id) => id !== magnet.id);
    const near = [this.selected, this.last].find((id) => ids.includes(id)) ?? ids[this.ts?.linesOfBoxes(others).at(-1)?.at(-1)];
    const spot = at
      ? freeSpot(others, size, { ...room, gap: 0, margin: 0, prefer: [at], target: at })
      : placeNear(others, size, near && this.shown.get(near), { ...room, ...view, lineStart: this.lineStart(near) });
    this.store(magnet, spot.x, spot.y);
    this.shown.set(magnet.id, { x: spot.x, y: spot.y, ...size });
    this.draw(node, spot);
    this.last = magnet.id;
    this.reveal(node);
    this.gestures();
    this.typesetting();
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
    if (box.top < 0 || box.bottom > innerHeight) node.scrollIntoView({ block: 'center', behavior: scrollBehavior() });
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

  // ---------- The selected magnet's tools ----------

  placeTools() {} // board-gestures.js: only a selected magnet has tools

  // ---------- Input (board-gestures.js, loaded with the first magnet: before there is one to drag) ----------

  wire() {
    const el = this.el;
    el.addEventListener('pointerdown', (e) => this.pointerDown?.(e));
    el.addEventListener('pointermove', (e) => this.pointerMove?.(e));
    el.addEventListener('pointerup', (e) => this.pointerUp?.(e, false));
    el.addEventListener('pointercancel', (e) => this.pointerUp?.(e, true));
    el.addEventListener('lostpointercapture', (e) => this.pointerUp?.(e, true));
    el.addEventListener('keydown', (e) => this.keyDown?.(e));
    el.addEventListener('dragstart', (e) => e.preventDefault());
    const rotate = el.querySelector('.pm-rotate');
    const remove = el.querySelector('.pm-delete');
    // A key, or a press that began on this tool for the selected word (not a tap that selected a neighbour under it)
    const mine = (e) => !(e.clientX || e.clientY) || (this.pressed?.tool === e.currentTarget && this.pressed.id === this.selected);
    if (remove) remove.addEventListener('click', (e) => this.selected && mine(e) && this.remove(this.selected));
    if (rotate) rotate.addEventListener('click', (e) => mine(e) && this.rotateClick?.());
  }
}
