// Magnetic Poetry: the tray of words not on the board, in rows (layout.js `layoutTray`), a page at a time. A tile
// tapped goes next to the last word placed (`onTap`); dragged onto the board, where it is dropped (`onDrop`).
import { layoutTray } from './layout.js';
import { reducedMotion } from './dom.js';

const GAP = 6;

export class Tray {
  constructor(element, { onTap, onDrop, over }) {
    this.el = element;
    this.tiles = element.querySelector('.pm-tiles');
    this.prev = element.querySelector('[data-page="-1"]');
    this.next = element.querySelector('[data-page="1"]');
    this.status = element.querySelector('.pm-page');
    this.onTap = onTap;
    this.onDrop = onDrop;
    this.over = over; // (x, y) → whether a point (client px) is over the board
    this.words = [];
    this.page = 0;
    this.pages = 1;
    this.rows = 2;
    this.drag = null;
    this.prev.addEventListener('click', () => this.turn(-1));
    this.next.addEventListener('click', () => this.turn(1));
    this.tiles.addEventListener('pointerdown', (e) => this.down(e));
    this.tiles.addEventListener('pointermove', (e) => this.moveTo(e));
    this.tiles.addEventListener('pointerup', (e) => this.up(e, false));
    this.tiles.addEventListener('pointercancel', (e) => this.up(e, true));
    this.tiles.addEventListener('click', (e) => {
      const tile = e.target.closest('.pm-tile');
      if (!tile || this.skipClick) {
        this.skipClick = false;
        return;
      }
      this.onTap(tile.dataset.word);
    });
    this.tiles.addEventListener('dragstart', (e) => e.preventDefault());
    new ResizeObserver(() => this.layout()).observe(this.tiles);
  }

  /** Shows `words` (in order; a word may come more than once). Keeps the page when it can. */
  show(words) {
    const same = words.length === this.words.length && words.every((w, i) => w === this.words[i]);
    if (same) return this.layout();
    this.words = words;
    this.tiles.replaceChildren(
      ...words.map((word) => {
        const tile = document.createElement('button');
        tile.type = 'button';
        tile.className = 'pm-tile';
        tile.dataset.word = word;
        tile.textContent = ` ${word} `;
        tile.setAttribute('aria-label', `${word}: put on the board`);
        return tile;
      }),
    );
    this.el.classList.toggle('is-empty', words.length === 0);
    this.layout();
  }

  /** Measures every tile and lays them out in rows and pages (again after a font or size change). */
  layout() {
    const tiles = [...this.tiles.children];
    const width = this.tiles.clientWidth;
    this.rows = Number(getComputedStyle(this.el).getPropertyValue('--pm-rows')) || 2;
    for (const tile of tiles) tile.hidden = false;
    const rowHeight = Math.max(44, ...tiles.slice(0, 1).map((t) => t.offsetHeight));
    const { places, pages } = layoutTray(
      tiles.map((t) => t.offsetWidth),
      { width, rowHeight, gap: GAP, rowGap: GAP, rows: this.rows },
    );
    this.pages = pages;
    this.page = Math.min(this.page, pages - 1);
    this.tiles.style.height = `${this.rows * rowHeight + (this.rows - 1) * GAP}px`;
    tiles.forEach((tile, i) => {
      tile.style.left = `${places[i].x}px`;
      tile.style.top = `${places[i].y}px`;
      tile.style.maxWidth = `${width}px`;
      tile.dataset.trayPage = String(places[i].page);
    });
    this.showPage();
  }

  showPage() {
    for (const tile of this.tiles.children) tile.hidden = Number(tile.dataset.trayPage) !== this.page;
    this.prev.disabled = this.page === 0;
    this.next.disabled = this.page >= this.pages - 1;
    this.status.textContent = `Words, page ${this.page + 1} of ${this.pages}`;
    this.el.dataset.pages = String(this.pages);
  }

  turn(by) {
    this.page = Math.max(0, Math.min(this.pages - 1, this.page + by));
    this.showPage();
  }

  /** Turns to the page that holds `word` (a word put back from the board). */
  showWord(word) {
    const tile = [...this.tiles.children].find((t) => t.dataset.word === word);
    if (!tile) return;
    this.page = Number(tile.dataset.trayPage) || 0;
    this.showPage();
  }

  // ---------- Dragging a tile onto the board ----------

  down(e) {
    const tile = e.target.closest('.pm-tile');
    if (!tile || this.drag || (e.pointerType === 'mouse' && e.button !== 0)) return;
    e.preventDefault();
    tile.setPointerCapture(e.pointerId);
    const r = tile.getBoundingClientRect();
    this.drag = {
      tile,
      pointerId: e.pointerId,
      startX: e.clientX,
      startY: e.clientY,
      dx: e.clientX - r.left,
      dy: e.clientY - r.top,
      ghost: null,
    };
  }

  moveTo(e) {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointerId) return;
    if (!drag.ghost && Math.hypot(e.clientX - drag.startX, e.clientY - drag.startY) < 6) return;
    if (!drag.ghost) {
      drag.ghost = drag.tile.cloneNode(true);
      drag.ghost.className = 'pm-tile pm-ghost';
      drag.ghost.removeAttribute('aria-label');
      drag.ghost.setAttribute('aria-hidden', 'true');
      drag.ghost.style.cssText = `width:${drag.tile.offsetWidth}px;height:${drag.tile.offsetHeight}px;font-size:${getComputedStyle(drag.tile).fontSize}`;
      document.body.append(drag.ghost);
      drag.tile.classList.add('is-lifted');
    }
    Object.assign(drag, { x: e.clientX, y: e.clientY });
    drag.ghost.style.translate = `${e.clientX - drag.dx}px ${e.clientY - drag.dy}px`;
    drag.ghost.classList.toggle('is-over-board', this.over(e.clientX, e.clientY));
  }

  up(e, cancelled) {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointerId) return;
    this.drag = null;
    drag.tile.classList.remove('is-lifted');
    if (!drag.ghost) return; // a tap: the click that follows puts the word on the board
    this.skipClick = true;
    setTimeout(() => {
      this.skipClick = false;
    }, 0);
    const ghost = drag.ghost;
    const [x, y] = [drag.x ?? e.clientX, drag.y ?? e.clientY];
    if (!cancelled && this.over(x, y)) {
      ghost.remove();
      this.onDrop(drag.tile.dataset.word, x - drag.dx, y - drag.dy);
      return;
    }
    const home = drag.tile.getBoundingClientRect();
    if (reducedMotion() || typeof ghost.animate !== 'function') return ghost.remove();
    ghost
      .animate([{ translate: ghost.style.translate }, { translate: `${home.left}px ${home.top}px` }], { duration: 180, easing: 'ease-out' })
      .finished.then(
        () => ghost.remove(),
        () => ghost.remove(),
      );
  }
}
