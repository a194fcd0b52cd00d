// City Roulette: the offline map, a Web Mercator <canvas>: the world's cities as faint dots (loaded after the
// first paint), the scene's marked, the selected one labelled; OpenStreetMap tiles only with "Street map" on.
import { decodePoints, fitView, fromScreen, nearestIndex, panBy, project, toScreen, unproject, zoomAt } from './geo.js';
import { formatNumber } from './logic.js';

let worldPromise = null;

/** The world's cities as world coordinates (fetched once per page; an empty array when that fails). */
export function loadWorld() {
  worldPromise ??= fetch('/api/v1/cities/map-points', { credentials: 'same-origin' })
    .then((r) => (r.ok ? r.arrayBuffer() : new ArrayBuffer(0)))
    .then((buffer) => decodePoints(new Int16Array(buffer, 0, buffer.byteLength >> 1)))
    .catch(() => new Float32Array(0));
  return worldPromise;
}

export class CityMap {
  constructor(canvas, { onSelect = () => {}, maxScale } = {}) {
    this.canvas = canvas;
    canvas.cityMap = this; // for tools and tests
    this.ctx = canvas.getContext('2d');
    this.onSelect = onSelect;
    this.maxScale = maxScale;
    this.cities = [];
    this.points = [];
    this.world = new Float32Array(0);
    this.view = { cx: 0.5, cy: 0.5, scale: 256 };
    this.selected = null;
    this.street = false;
    this.pointers = new Map();
    this.frame = 0;
    this.width = 0;
    this.height = 0;
    this.listen();
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
  }

  setWorld(points) { this.world = points; this.draw(); }

  setCities(cities, { fit = true } = {}) {
    this.cities = cities;
    this.points = cities.map((c) => project(c.longitude, c.latitude));
    if (this.selected != null && !cities.some((c) => c.geonameid === this.selected)) this.selected = null;
    if (fit) this.fit();
    this.draw();
  }

  fit() {
    this.view = fitView(this.points, this.width || 300, this.height || 200, { maxScale: this.maxScale });
    this.draw();
  }

  select(id, { reveal = false } = {}) {
    this.selected = id;
    const i = this.cities.findIndex((c) => c.geonameid === id);
    if (reveal && i >= 0) {
      const [x, y] = this.screen(i);
      if (x < 20 || y < 20 || x > this.width - 20 || y > this.height - 20) {
        this.view = { ...this.view, cx: this.points[i].x, cy: this.points[i].y };
      }
    }
    this.draw();
  }

  /** Street map on or off: its tiles are painted by tiles.js, loaded when first turned on. */
  setStreet(on) {
    this.street = on;
    if (on) this.tileLayer ??= import('./tiles.js').then((t) => t.tileLayer(this), () => { this.tileLayer = null; });
    this.draw();
  }

  zoom(factor, sx = this.width / 2, sy = this.height / 2) {
    this.view = zoomAt(this.view, factor, sx, sy, this.width, this.height);
    this.draw();
  }

  resize() {
    const { clientWidth: w, clientHeight: h } = this.canvas;
    if (!w || !h) return;
    const first = !this.width;
    const dpr = window.devicePixelRatio || 1;
    this.width = w;
    this.height = h;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    if (first) this.fit();
    this.draw(true);
  }

  screen(i) { return toScreen(this.view, this.width, this.height, this.points[i].x, this.points[i].y); }

  draw(now = false) {
    if (now) { cancelAnimationFrame(this.frame); this.frame = 0; this.paint(); return; }
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.paint(); });
  }

  paint() {
    const { ctx, width: w, height: h, view } = this;
    if (!w) return;
    const css = getComputedStyle(this.canvas);
    const color = (name) => css.getPropertyValue(name).trim();
    ctx.setTransform(this.canvas.width / w, 0, 0, this.canvas.height / h, 0, 0);
    ctx.fillStyle = color('--cr-sea');
    ctx.fillRect(0, 0, w, h);
    if (this.street && navigator.onLine && this.paintTiles) this.paintTiles();
    else this.paintGrid(color('--cr-grid'));

    // The world's cities, the most populous first: far out, only the first ones.
    const world = this.world;
    const limit = Math.min(world.length, view.scale < 4096 ? 80000 : world.length);
    const size = view.scale < 2048 ? 1 : 1.5;
    ctx.fillStyle = color('--cr-dot');
    const ox = w / 2 - view.cx * view.scale;
    const oy = h / 2 - view.cy * view.scale;
    for (let i = 0; i < limit; i += 2) {
      const x = world[i] * view.scale + ox;
      const y = world[i + 1] * view.scale + oy;
      if (x >= 0 && y >= 0 && x <= w && y <= h) ctx.fillRect(x, y, size, size);
    }

    let chosen = -1;
    this.cities.forEach((city, i) => {
      if (city.geonameid === this.selected) { chosen = i; return; }
      const [x, y] = this.screen(i);
      this.dot(x, y, 5, color(city.favourite ? '--cr-fav' : '--cr-mark'), color('--cr-halo'));
    });
    if (chosen >= 0) this.paintSelected(chosen, color);
  }

  /** Faint meridians and parallels, a round number of degrees apart. */
  paintGrid(stroke) {
    const { ctx, width: w, height: h, view } = this;
    const span = (w / view.scale) * 360;
    const step = [60, 30, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01].find((s) => span / s >= 3) ?? 0.01;
    const a = fromScreen(view, w, h, 0, h);
    const b = fromScreen(view, w, h, w, 0);
    const [west, south] = [unproject(a.x, a.y).longitude, unproject(a.x, Math.min(1, a.y)).latitude];
    const [east, north] = [unproject(b.x, b.y).longitude, unproject(b.x, Math.max(0, b.y)).latitude];
    ctx.beginPath();
    for (let d = Math.ceil(Math.max(-180, west) / step) * step; d <= Math.min(180, east); d += step) {
      const [x] = toScreen(view, w, h, project(d, 0).x, 0);
      ctx.moveTo(x, 0); ctx.lineTo(x, h);
    }
    for (let d = Math.ceil(Math.max(-85, south) / step) * step; d <= Math.min(85, north); d += step) {
      const [, y] = toScreen(view, w, h, 0, project(0, d).y);
      ctx.moveTo(0, y); ctx.lineTo(w, y);
    }
    ctx.lineWidth = 1;
    ctx.strokeStyle = stroke;
    ctx.stroke();
  }

  dot(x, y, r, fill, stroke) {
    const { ctx } = this;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = stroke;
    ctx.stroke();
  }

  paintSelected(i, color) {
    const { ctx } = this;
    const city = this.cities[i];
    const [x, y] = this.screen(i);
    this.dot(x, y, 7, color('--cr-sel'), color('--cr-halo'));
    ctx.beginPath();
    ctx.arc(x, y, 12, 0, Math.PI * 2);
    ctx.lineWidth = 2.5;
    ctx.strokeStyle = color('--cr-sel');
    ctx.stroke();
    const text = city.population ? `${city.name} · ${formatNumber(city.population)}` : city.name;
    ctx.font = `600 13px ${color('--font') || 'system-ui'}`;
    const tw = ctx.measureText(text).width + 12;
    const lx = Math.max(4, Math.min(this.width - tw - 4, x - tw / 2));
    const ly = y - 40 < 4 ? y + 16 : y - 40;
    ctx.fillStyle = color('--cr-label-bg');
    ctx.fillRect(lx, ly, tw, 22);
    ctx.fillStyle = color('--cr-label');
    ctx.textBaseline = 'middle';
    ctx.fillText(text, lx + 6, ly + 11);
  }

  pick(sx, sy) {
    const i = nearestIndex(this.cities.map((_, j) => this.screen(j)), sx, sy);
    if (i < 0) return;
    this.select(this.cities[i].geonameid);
    this.onSelect(this.cities[i].geonameid);
  }

  listen() {
    const c = this.canvas;
    const local = (e) => { const r = c.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
    let moved = 0;
    let pinch = null;
    c.addEventListener('pointerdown', (e) => {
      c.setPointerCapture(e.pointerId);
      this.pointers.set(e.pointerId, local(e));
      if (this.pointers.size === 1) moved = 0;
      pinch = null;
    });
    c.addEventListener('pointermove', (e) => {
      const last = this.pointers.get(e.pointerId);
      if (!last) return;
      const now = local(e);
      this.pointers.set(e.pointerId, now);
      if (this.pointers.size === 1) {
        moved += Math.abs(now[0] - last[0]) + Math.abs(now[1] - last[1]);
        this.view = panBy(this.view, now[0] - last[0], now[1] - last[1], this.height);
        this.draw();
      } else if (this.pointers.size === 2) {
        moved = 99;
        const [a, b] = [...this.pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        if (pinch) {
          this.view = panBy(this.view, mid[0] - pinch.mid[0], mid[1] - pinch.mid[1], this.height);
          this.zoom(d / pinch.d || 1, mid[0], mid[1]);
        }
        pinch = { d, mid };
      }
    });
    const end = (e) => {
      if (!this.pointers.has(e.pointerId)) return;
      const at = this.pointers.get(e.pointerId);
      this.pointers.delete(e.pointerId);
      pinch = null;
      if (e.type === 'pointerup' && this.pointers.size === 0 && moved < 6) this.pick(...at);
    };
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.zoom(Math.exp(-Math.max(-300, Math.min(300, e.deltaY)) * 0.002), ...local(e));
    }, { passive: false });
    c.addEventListener('dblclick', (e) => this.zoom(2, ...local(e)));
    c.addEventListener('keydown', (e) => {
      const step = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] }[e.key];
      if (step) this.view = panBy(this.view, step[0], step[1], this.height);
      else if (e.key === '+' || e.key === '=') this.view = zoomAt(this.view, 1.6, this.width / 2, this.height / 2, this.width, this.height);
      else if (e.key === '-') this.view = zoomAt(this.view, 1 / 1.6, this.width / 2, this.height / 2, this.width, this.height);
      else if (e.key === '0') this.view = fitView(this.points, this.width, this.height, { maxScale: this.maxScale });
      else return;
      e.preventDefault();
      this.draw();
    });
  }
}

/** Wires the +, − and "fit" buttons and the street-map switch found inside `root` to a map. */
export function wireMapControls(root, map, { onStreet } = {}) {
  root.querySelector('[data-zoom="in"]')?.addEventListener('click', () => map.zoom(1.6));
  root.querySelector('[data-zoom="out"]')?.addEventListener('click', () => map.zoom(1 / 1.6));
  root.querySelector('[data-zoom="fit"]')?.addEventListener('click', () => map.fit());
  const street = root.querySelector('[data-street]');
  const credit = root.querySelector('[data-osm-credit]');
  if (!street) return;
  const apply = () => {
    const on = street.checked && navigator.onLine;
    map.setStreet(on);
    if (credit) credit.hidden = !on;
    onStreet?.(street.checked);
  };
  street.addEventListener('change', apply);
  addEventListener('online', apply);
  addEventListener('offline', apply);
}
