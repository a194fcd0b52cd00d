// City Roulette: the map, a Web Mercator <canvas>. Under everything Trove's own basemap (land, sea, borders);
// over it a street map's tiles when they load (tiles.js; a note says when they cannot); the world's cities
// as faint dots; the scene's cities named (labels.js); "you are here" with the search radius; a scale bar.
import { formatNumber } from '../js/format.js';
import { loadBasemap } from './basemap.js';
import { decodePoints, fitView, metresPerPixel, nearestIndex, panBy, project, toScreen, unproject, zoomAt } from './geo.js';
import { overlaps, placeLabels, placeTag, scaleBar } from './labels.js';

let worldPromise = null;
const STREET_KEY = 'trove.cities.street';

/** The world's cities as world coordinates (fetched once per page; an empty array when that fails). */
export function loadWorld() {
  worldPromise ??= fetch('/api/v1/cities/map-points', { credentials: 'same-origin' })
    .then((r) => (r.ok ? r.arrayBuffer() : new ArrayBuffer(0)))
    .then((buffer) => decodePoints(new Int16Array(buffer, 0, buffer.byteLength >> 1)))
    .catch(() => new Float32Array(0));
  return worldPromise;
}

export class CityMap {
  constructor(canvas, { onSelect = () => {}, maxScale, onTiles = () => {} } = {}) {
    this.canvas = canvas;
    canvas.cityMap = this; // for tools and tests
    this.ctx = canvas.getContext('2d');
    Object.assign(this, { onSelect, maxScale, onTiles });
    this.cities = [];
    this.points = [];
    this.labels = [];
    this.world = new Float32Array(0);
    this.basemap = null;
    this.here = null;
    this.view = { cx: 0.5, cy: 0.5, scale: 256 };
    this.selected = null;
    this.street = false;
    this.tiles = 'off'; // 'off', 'loading', 'ok' or 'failed'
    this.pointers = new Map();
    this.frame = 0;
    this.width = 0;
    this.height = 0;
    this.labelOf = (c) => c.name;
    this.listen();
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
    loadBasemap().then((b) => {
      this.basemap = b;
      this.draw();
    });
  }

  setWorld(points) {
    this.world = points;
    this.draw();
  }

  /** "You are here" and the search radius: { latitude, longitude, radiusKm }, or null. */
  setHere(here) {
    this.here = here && { ...here, point: project(here.longitude, here.latitude) };
  }

  setCities(cities, { fit = true } = {}) {
    this.cities = cities;
    this.points = cities.map((c) => project(c.longitude, c.latitude));
    if (this.selected != null && !cities.some((c) => c.geonameid === this.selected)) this.selected = null;
    if (fit) this.fit();
    this.draw();
  }

  /** Every city in view, apart; around a point, its circle; one city with its region. */
  fit() {
    const points = [...this.points];
    const { here } = this;
    if (here) {
      const dLat = here.radiusKm / 111.2;
      const dLon = dLat / Math.cos((here.latitude * Math.PI) / 180);
      points.push(project(here.longitude - dLon, here.latitude + dLat), project(here.longitude + dLon, here.latitude - dLat));
    }
    const minSpan = here ? 1e-9 : this.points.length > 1 ? 5e-5 : 0.012;
    this.view = fitView(points, this.width || 300, this.height || 200, { maxScale: this.maxScale, minSpan });
    this.draw();
  }

  select(id, { reveal = false } = {}) {
    this.selected = id;
    const i = this.cities.findIndex((c) => c.geonameid === id);
    if (reveal && i >= 0) {
      const [x, y] = this.screen(i);
      if (x < 24 || y < 24 || x > this.width - 24 || y > this.height - 24) {
        this.view = { ...this.view, cx: this.points[i].x, cy: this.points[i].y };
      }
    }
    this.draw();
  }

  /** The street map on or off (tiles.js, loaded when first on); `url` a {z}/{x}/{y} template. */
  setStreet(on, url) {
    this.street = on;
    if (on && !this.tileLayer) {
      this.setTiles('loading');
      this.tileLayer = import('./tiles.js').then(
        (t) => t.tileLayer(this, url),
        () => {
          this.tileLayer = null;
          this.setTiles('failed');
        },
      );
    }
    if (!on) this.setTiles('off');
    else if (this.tiles === 'off' || this.tiles === 'failed') this.retryTiles?.();
    this.draw();
  }

  setTiles(state) {
    if (state === this.tiles) return;
    this.tiles = state;
    this.onTiles(state);
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

  screen(i) {
    return toScreen(this.view, this.width, this.height, this.points[i].x, this.points[i].y);
  }

  draw(now = false) {
    if (now) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
      this.paint();
      return;
    }
    if (!this.frame)
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.paint();
      });
  }

  paint() {
    const { ctx, width: w, height: h, view } = this;
    if (!w) return;
    const css = getComputedStyle(this.canvas);
    const color = (name) => css.getPropertyValue(name).trim();
    ctx.setTransform(this.canvas.width / w, 0, 0, this.canvas.height / h, 0, 0);
    ctx.fillStyle = color('--cr-sea');
    ctx.fillRect(0, 0, w, h);
    this.paintBasemap(color);
    const streets = this.street && this.tiles !== 'failed' && this.paintTiles;
    if (streets) this.paintTiles();

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

    this.paintHere(color);
    let chosen = -1;
    this.cities.forEach((city, i) => {
      if (city.geonameid === this.selected) {
        chosen = i;
        return;
      }
      const [x, y] = this.screen(i);
      this.dot(x, y, 5, color(city.favourite ? '--cr-fav' : '--cr-mark'), color('--cr-halo'));
    });
    const controls = this.controls();
    const taken = chosen >= 0 ? this.paintSelected(chosen, color, controls) : [];
    this.tag = taken[0]; // the selected city's label, for tests
    this.paintLabels(color, [...controls, ...taken]);
    this.paintScale(color);
  }

  /**
   * Land and borders. They are drawn into a bitmap twice the map's size around the view, kept while the
   * map pans within it (one drawImage a frame) and drawn again for a new zoom, size or colour scheme.
   */
  paintBasemap(color) {
    if (!this.basemap) return;
    const { ctx, width: w, height: h, view } = this;
    const k = this.canvas.width / w;
    const ox = w / 2 - view.cx * view.scale;
    const oy = h / 2 - view.cy * view.scale;
    const land = color('--cr-land');
    let c = this.landCache;
    if (
      !c ||
      c.scale !== view.scale ||
      c.k !== k ||
      c.w !== w ||
      c.h !== h ||
      c.land !== land ||
      Math.abs(ox - c.ox) > w / 2 ||
      Math.abs(oy - c.oy) > h / 2
    ) {
      c = { scale: view.scale, k, w, h, land, ox, oy, canvas: c?.canvas ?? document.createElement('canvas') };
      c.canvas.width = Math.round(2 * w * k);
      c.canvas.height = Math.round(2 * h * k);
      const cc = c.canvas.getContext('2d');
      cc.setTransform(k, 0, 0, k, 0, 0);
      this.drawLand(cc, color, ox + w / 2, oy + h / 2, [-w / 2, -h / 2, 1.5 * w, 1.5 * h]);
      this.landCache = c;
    }
    const dx = Math.round((ox - c.ox - w / 2) * k) / k;
    const dy = Math.round((oy - c.oy - h / 2) * k) / k;
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(c.canvas, dx, dy, c.canvas.width / k, c.canvas.height / k);
    ctx.imageSmoothingEnabled = true;
  }

  /** The countries seen in `area` (px of `cc`, offset ox, oy): land in one path, then its borders. */
  drawLand(cc, color, ox, oy, area) {
    const s = this.view.scale;
    const seen = [(area[0] - ox) / s, (area[1] - oy) / s, (area[2] - ox) / s, (area[3] - oy) / s];
    cc.beginPath();
    for (const country of this.basemap) {
      if (!overlaps(country.box, seen)) continue;
      for (const ring of country.rings) {
        // Far out, points less than a pixel apart are one point: the path stays short at any zoom.
        let [lx, ly] = [ring[0] * s + ox, ring[1] * s + oy];
        cc.moveTo(lx, ly);
        for (let i = 2; i < ring.length; i += 2) {
          const x = ring[i] * s + ox;
          const y = ring[i + 1] * s + oy;
          if (Math.abs(x - lx) + Math.abs(y - ly) < 1) continue;
          cc.lineTo(x, y);
          lx = x;
          ly = y;
        }
        cc.closePath();
      }
    }
    cc.fillStyle = color('--cr-land');
    cc.fill();
    cc.lineWidth = 0.8;
    cc.lineJoin = 'round';
    cc.strokeStyle = color('--cr-border');
    cc.stroke();
  }

  paintHere(color) {
    const { here, ctx } = this;
    if (!here) return;
    const [x, y] = toScreen(this.view, this.width, this.height, here.point.x, here.point.y);
    const r = (here.radiusKm * 1000) / metresPerPixel(this.view.scale, here.latitude);
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = color('--cr-radius-fill');
    ctx.fill();
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = 2;
    ctx.strokeStyle = color('--cr-radius');
    ctx.stroke();
    ctx.setLineDash([]);
    this.dot(x, y, 8, color('--cr-here'), color('--cr-halo'));
    ctx.beginPath();
    ctx.arc(x, y, 3, 0, Math.PI * 2);
    ctx.fillStyle = color('--cr-halo');
    ctx.fill();
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

  /** The map's controls (zoom, the offline note) as boxes in its pixels: no label goes under one. */
  controls() {
    const map = this.canvas.getBoundingClientRect();
    return [...this.canvas.parentElement.querySelectorAll('.cr-zoom, .cr-map-note:not([hidden])')].map((e) => {
      const r = e.getBoundingClientRect();
      return [r.left - map.left, r.top - map.top, r.right - map.left, r.bottom - map.top];
    });
  }

  /** The selected city: a ringed dot and a boxed label with its population; returns the boxes they cover. */
  paintSelected(i, color, controls) {
    const { ctx } = this;
    const city = this.cities[i];
    const [x, y] = this.screen(i);
    this.dot(x, y, 7, color('--cr-sel'), color('--cr-halo'));
    ctx.beginPath();
    ctx.arc(x, y, 12, 0, Math.PI * 2);
    ctx.lineWidth = 2.5;
    ctx.strokeStyle = color('--cr-sel');
    ctx.stroke();
    const name = this.labelOf(city);
    const text = city.population ? `${name} · ${formatNumber(city.population)}` : name;
    ctx.font = `600 13px ${color('--font') || 'system-ui'}`;
    const tw = ctx.measureText(text).width + 12;
    const [lx, ly] = placeTag({ x, y, w: tw, h: 22, width: this.width, height: this.height, avoid: controls });
    ctx.fillStyle = color('--cr-label-bg');
    ctx.fillRect(lx, ly, tw, 22);
    ctx.fillStyle = color('--cr-label');
    ctx.textBaseline = 'middle';
    ctx.fillText(text, lx + 6, ly + 11);
    return [
      [lx, ly, lx + tw, ly + 22],
      [x - 12, y - 12, x + 12, y + 12],
    ];
  }

  /** The other cities' names, the most populous first, none over another or over a dot. */
  paintLabels(color, taken) {
    const { ctx, width: w, height: h } = this;
    ctx.font = `600 12px ${color('--font') || 'system-ui'}`;
    const items = [];
    this.cities.forEach((city, i) => {
      const [x, y] = this.screen(i);
      if (city.geonameid !== this.selected && x > -40 && y > -20 && x < w + 40 && y < h + 20) {
        items.push({ x, y, text: this.labelOf(city), population: city.population ?? 0, id: city.geonameid });
      }
    });
    items.sort((a, b) => b.population - a.population);
    const measure = (text) => ctx.measureText(text).width;
    this.labels = placeLabels(items, { width: w, height: h, measure, taken: taken ?? [] }).map((l) => ({ ...l, id: items[l.index].id }));
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'round';
    ctx.lineWidth = 3;
    ctx.strokeStyle = color('--cr-halo');
    ctx.fillStyle = color('--cr-text');
    for (const l of this.labels) {
      ctx.strokeText(l.text, l.x, l.y);
      ctx.fillText(l.text, l.x, l.y);
    }
  }

  paintScale(color) {
    const { ctx, height: h, view } = this;
    const latitude = unproject(view.cx, view.cy).latitude;
    const bar = scaleBar(metresPerPixel(view.scale, latitude), 90);
    const x = 10;
    const y = h - 10;
    ctx.font = `600 11px ${color('--font') || 'system-ui'}`;
    ctx.textBaseline = 'bottom';
    ctx.lineWidth = 3;
    ctx.strokeStyle = color('--cr-halo');
    ctx.strokeText(bar.text, x, y - 6);
    ctx.fillStyle = color('--cr-text');
    ctx.fillText(bar.text, x, y - 6);
    ctx.beginPath();
    ctx.moveTo(x, y - 5);
    ctx.lineTo(x, y);
    ctx.lineTo(x + bar.px, y);
    ctx.lineTo(x + bar.px, y - 5);
    ctx.stroke();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = color('--cr-text');
    ctx.stroke();
    this.scale = bar;
  }

  pick(sx, sy) {
    const i = nearestIndex(
      this.cities.map((_, j) => this.screen(j)),
      sx,
      sy,
    );
    if (i < 0) return;
    this.select(this.cities[i].geonameid);
    this.onSelect(this.cities[i].geonameid);
  }

  listen() {
    const c = this.canvas;
    const local = (e) => {
      const r = c.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
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
    c.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        this.zoom(Math.exp(-Math.max(-300, Math.min(300, e.deltaY)) * 0.002), ...local(e));
      },
      { passive: false },
    );
    c.addEventListener('dblclick', (e) => this.zoom(2, ...local(e)));
    c.addEventListener('keydown', (e) => {
      const step = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] }[e.key];
      if (step) this.view = panBy(this.view, step[0], step[1], this.height);
      else if (e.key === '+' || e.key === '=') this.view = zoomAt(this.view, 1.6, this.width / 2, this.height / 2, this.width, this.height);
      else if (e.key === '-') this.view = zoomAt(this.view, 1 / 1.6, this.width / 2, this.height / 2, this.width, this.height);
      else if (e.key === '0') {
        this.fit();
        return;
      } else return;
      e.preventDefault();
      this.draw();
    });
  }
}

/** Whether the street map is wanted (on unless turned off on this device). */
export const wantsStreet = () => {
  try {
    return localStorage.getItem(STREET_KEY) !== 'off';
  } catch {
    return true;
  }
};

/**
 * Wires the +, − and "fit" buttons, the street-map switch and its note and credit found inside `root`.
 * The street map shows when wanted and online; when its tiles fail, the note says the map is Trove's own.
 */
export function wireMapControls(root, map) {
  const $in = (s) => root.querySelector(s);
  $in('[data-zoom="in"]')?.addEventListener('click', () => map.zoom(1.6));
  $in('[data-zoom="out"]')?.addEventListener('click', () => map.zoom(1 / 1.6));
  $in('[data-zoom="fit"]')?.addEventListener('click', () => map.fit());
  const street = $in('[data-street]');
  const credit = $in('[data-osm-credit]');
  const note = $in('[data-map-note]');
  if (!street) return;
  street.checked = wantsStreet();
  const url = map.canvas.dataset.tileUrl || 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
  map.onTiles = (state) => {
    // The credit keeps its line while the switch is on, shown or not: a line that came and went as tiles
    // loaded or failed would move what is below under a finger about to tap it.
    if (credit) {
      credit.hidden = !street.checked;
      credit.classList.toggle('is-unused', state !== 'ok' && state !== 'loading');
    }
    if (note) {
      note.hidden = state !== 'failed' && !(street.checked && !navigator.onLine);
      note.textContent = navigator.onLine ? 'No street map: offline map' : 'No connection: offline map';
    }
  };
  const apply = () => {
    try {
      localStorage.setItem(STREET_KEY, street.checked ? 'on' : 'off');
    } catch {
      /* this page only */
    }
    map.setStreet(street.checked && navigator.onLine, url);
    map.onTiles(map.tiles);
  };
  street.addEventListener('change', apply);
  addEventListener('online', apply);
  addEventListener('offline', apply);
  apply();
}
