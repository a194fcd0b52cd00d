// Magnetic Poetry: what a person does to the board's magnets, added to Board (board.js) when the first magnet is on
// an editable board (the first paint of an empty board does without it): dragging, selecting, removing, the rotate
// handle and the two-finger twist, the keyboard, and the shadows' tilt with the device.
import { freeSpot, overlaps } from './layout.js';
import { reducedMotion, stylesheet } from './dom.js';

await stylesheet('board-gestures.css'); // its looks come with it

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));
const normalise = (deg) => Math.round((((((deg + 180) % 360) + 360) % 360) - 180) * 10) / 10;

export const gestures = {
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
  },

  /** Takes a magnet off the board (back to the tray), with a short shrink and fade. */
  remove(id, { undoKey = true } = {}) {
    const index = this.data.magnets.findIndex((m) => m.id === id);
    if (index < 0) return;
    if (undoKey) this.onBefore(`remove:${id}`);
    const node = this.nodes.get(id);
    const hadFocus = node.contains(document.activeElement) || this.tools?.contains(document.activeElement);
    const order = [...this.nodes.keys()];
    this.data.magnets.splice(index, 1);
    if (!this.data.magnets.length) this.keepShape(); // an empty board takes the stage's shape again
    this.nodes.delete(id);
    this.shown.delete(id);
    if (this.last === id) this.last = null;
    if (this.selected === id) this.select(null);
    node.removeAttribute('tabindex');
    node.classList.add('is-leaving');
    if (reducedMotion() || typeof node.animate !== 'function') node.remove();
    else
      node
        .animate(
          [
            { scale: 1, opacity: 1 },
            { scale: 0.2, opacity: 0 },
          ],
          { duration: 220, easing: 'ease-in' },
        )
        .finished.then(
          () => node.remove(),
          () => node.remove(),
        );
    if (hadFocus) {
      const next = order[order.indexOf(id) + 1] || order[order.indexOf(id) - 1];
      (this.nodes.get(next) || this.el).focus({ preventScroll: true });
    }
    this.changed();
  },

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
  },

  rotate(magnet, degrees) {
    magnet.rotation = normalise(degrees);
    this.place(this.nodes.get(magnet.id), magnet);
    if (magnet.id === this.selected) this.placeTools();
  },

  select(id) {
    if (this.selected === id) return;
    if (this.selected) this.nodes.get(this.selected)?.classList.remove('is-selected');
    this.selected = id && this.nodes.has(id) ? id : null;
    if (this.selected) this.nodes.get(this.selected).classList.add('is-selected');
    this.placeTools();
    this.onSelect(this.selected ? this.magnet(this.selected) : null);
  },

  pointerDown(e) {
    const target = e.target instanceof Element ? e.target : null;
    if (!target) return;
    if (this.drag && this.drag.kind === 'move' && !this.twist && e.pointerId !== this.drag.pointerId && e.pointerType !== 'mouse') {
      e.preventDefault();
      this.el.setPointerCapture(e.pointerId);
      const magnet = this.magnet(this.drag.id);
      this.twist = { pointerId: e.pointerId, x: e.clientX, y: e.clientY, start: this.angle(e.clientX, e.clientY), from: magnet.rotation };
      return;
    }
    if (this.drag || (e.pointerType === 'mouse' && e.button !== 0)) return;
    // A tool drawn over a neighbour: a tap on the neighbour's tile selects it (the × there sent the selected word back).
    const tool = target.closest('.pm-tool');
    // (the drawn × or ↻ itself, within 12 px of its centre, stays the tool's)
    const c = tool?.getBoundingClientRect();
    const onGlyph = c && Math.hypot(e.clientX - c.x - c.width / 2, e.clientY - c.y - c.height / 2) <= 12;
    const under = tool && !onGlyph && this.tileAt(e.clientX, e.clientY, this.selected);
    // A tool's click acts only if the press began on it, for the word then selected (board.js `wire`).
    this.pressed = tool && !under ? { tool, id: this.selected } : null;
    if (!under && target.closest('.pm-rotate')) return this.startRotate(e);
    if (tool && !under) return;
    const node = under || this.pick(e.clientX, e.clientY) || target.closest('.pm-magnet');
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
      kind: 'move',
      id: magnet.id,
      node,
      pointerId: e.pointerId,
      startX: e.clientX,
      startY: e.clientY,
      x: e.clientX,
      y: e.clientY,
      originX: at.x,
      originY: at.y,
      moved: false,
      changed: false,
    };
    this.el.classList.add('is-holding');
  },

  /** Of the magnets whose touch area (44 x 44 px at least) is under (x, y): the top one whose tile is under it, else the top one. */
  pick(x, y) {
    const hits = [...new Set(document.elementsFromPoint(x, y).map((n) => n.closest?.('.pm-magnet')))].filter(
      (n) => n && this.nodes.get(n.dataset.id) === n,
    );
    const onTile = (n) => {
      const r = n.getBoundingClientRect();
      return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
    };
    return hits.find(onTile) || hits[0] || null; // elementsFromPoint lists what is drawn on top first
  },

  /** The top magnet but `except` whose tile (not its wider touch area) is under (x, y), or null. */
  tileAt(x, y, except) {
    for (const hit of document.elementsFromPoint(x, y)) {
      const n = hit.closest?.('.pm-magnet');
      const r = n?.getBoundingClientRect();
      if (n && this.nodes.get(n.dataset.id) === n && n.dataset.id !== except && x >= r.left && x <= r.right && y >= r.top && y <= r.bottom)
        return n;
    }
    return null;
  },

  /**
   * The selected magnet's tools, at its corners: above it, or below where that covers fewer other magnets (or it is
   * near the board's top). Where they still cover a neighbour, a tap on the neighbour is the neighbour's (tileAt).
   */
  placeTools() {
    if (!this.tools) return;
    const magnet = this.selected && this.magnet(this.selected);
    const node = magnet && this.nodes.get(magnet.id);
    this.tools.hidden = !node;
    if (!node) return;
    const style = this.tools.style;
    const at = this.shown.get(magnet.id) || { x: 0, y: 0 };
    const w = node.offsetWidth;
    const h = node.offsetHeight;
    style.left = `${at.x}px`;
    style.top = `${at.y}px`;
    style.setProperty('--pm-rot', `${magnet.rotation || 0}deg`);
    style.width = `${w}px`;
    style.height = `${h}px`;
    style.rotate = magnet.rotation ? `${magnet.rotation}deg` : '';
    const t = this.tools.firstElementChild?.offsetWidth || 44;
    const others = this.boxesBut(magnet.id);
    const covered = (y) =>
      [at.x - 0.6 * t, at.x + w - 0.4 * t].reduce((n, x) => n + others.filter((b) => overlaps({ x, y, w: t, h: t }, b)).length, 0);
    const above = covered(at.y - 0.6 * t);
    this.tools.classList.toggle('is-below', at.y < h + 16 || covered(at.y + h - 0.4 * t) < above);
  },

  /** Whether a point (client px) is over the tray. */
  overTray(x, y) {
    if (!this.tray) return false;
    const r = this.tray.getBoundingClientRect();
    return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  },

  touch(drag) {
    if (drag.changed) return;
    drag.changed = true;
    this.onBefore(`${drag.kind}:${drag.id}:${performance.now()}`);
  },

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
  },

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
  },

  toFront(magnet) {
    if (magnet.z === this.topZ() && this.data.magnets.filter((m) => m.z === magnet.z).length === 1) return;
    magnet.z = this.topZ() + 1;
    this.place(this.nodes.get(magnet.id), magnet);
  },

  startRotate(e) {
    const magnet = this.selected && this.magnet(this.selected);
    if (!magnet) return;
    e.preventDefault();
    this.skipClick = false;
    e.target.closest('.pm-rotate').setPointerCapture(e.pointerId);
    const { x, y } = this.centre(magnet);
    this.drag = {
      kind: 'rotate',
      id: magnet.id,
      pointerId: e.pointerId,
      cx: x,
      cy: y,
      startX: e.clientX,
      startY: e.clientY,
      start: Math.atan2(e.clientY - y, e.clientX - x),
      from: magnet.rotation,
      moved: false,
      changed: false,
    };
  },

  /** A magnet's centre in client coordinates. */
  centre(magnet) {
    const rect = this.el.getBoundingClientRect();
    const node = this.nodes.get(magnet.id);
    const at = this.shown.get(magnet.id) || { x: 0, y: 0 };
    return {
      x: rect.left + this.el.clientLeft + at.x + node.offsetWidth / 2,
      y: rect.top + this.el.clientTop + at.y + node.offsetHeight / 2,
    };
  },

  angle(x, y) {
    return Math.atan2(y - this.drag.y, x - this.drag.x);
  },

  applyTwist(magnet) {
    const twist = this.twist;
    this.touch(this.drag);
    const now = Math.atan2(twist.y - this.drag.y, twist.x - this.drag.x);
    this.rotate(magnet, twist.from + ((now - twist.start) * 180) / Math.PI);
  },

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
      const at = this.shown.get(magnet.id);
      this.move(magnet, at.x + dx * step * width, at.y + dy * step * height);
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
  },

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
  },

  rotateDrag(drag, magnet, e) {
    this.touch(drag);
    let degrees = drag.from + ((Math.atan2(e.clientY - drag.cy, e.clientX - drag.cx) - drag.start) * 180) / Math.PI;
    const snapped = Math.round(degrees / 90) * 90;
    if (Math.abs(degrees - snapped) < 3) degrees = snapped;
    this.rotate(magnet, degrees);
  },

  rotateClick() {
    if (this.skipClick) {
      this.skipClick = false;
      return;
    }
    const magnet = this.selected && this.magnet(this.selected);
    if (!magnet) return;
    this.onBefore(`rotate:${magnet.id}`);
    this.rotate(magnet, magnet.rotation + 15);
    this.changed();
  },
};
