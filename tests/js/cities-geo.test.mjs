// Unit tests for City Roulette's map maths and weather icons: `node --test tests/js/*.test.mjs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  MAX_LAT,
  MIN_SCALE,
  TILE,
  decodePoints,
  distanceKm,
  fitView,
  fromScreen,
  nearestIndex,
  panBy,
  project,
  toScreen,
  unproject,
  zoomAt,
} from '../../Sources/WebApp/Public/cities/geo.js';
import { CONDITIONS, iconKey, weatherSVG } from '../../Sources/WebApp/Public/cities/icons.js';
import { tilesFor } from '../../Sources/WebApp/Public/cities/tiles.js';

const close = (actual, expected, epsilon, message) =>
  assert.ok(Math.abs(actual - expected) <= epsilon, `${message ?? ''} ${actual} is not within ${epsilon} of ${expected}`);

// ---------- Projection ----------

test('Web Mercator puts the corners and the centre of the world where the tiles do', () => {
  assert.deepEqual(project(0, 0), { x: 0.5, y: 0.5 });
  close(project(-180, MAX_LAT).x, 0, 1e-12);
  close(project(-180, MAX_LAT).y, 0, 1e-9);
  close(project(180, -MAX_LAT).x, 1, 1e-12);
  close(project(180, -MAX_LAT).y, 1, 1e-9);
  close(project(0, 90).y, 0, 1e-9, 'the poles are clamped to the square world');
});

test('Florence falls in the OpenStreetMap tile that shows it', () => {
  const p = project(11.24626, 43.77925);
  // z=12: the slippy-map formula (x = (lon+180)/360·2^z, y = (1 − asinh(tan φ)/π)/2·2^z) gives 2175/1492.
  assert.equal(Math.floor(p.x * 4096), 2175);
  assert.equal(Math.floor(p.y * 4096), 1492);
});

test('unproject undoes project', () => {
  for (const [lon, lat] of [
    [11.24626, 43.77925],
    [-21.9, 64.1],
    [151.2, -33.87],
    [0, 0],
  ]) {
    const p = project(lon, lat);
    const back = unproject(p.x, p.y);
    close(back.longitude, lon, 1e-9);
    close(back.latitude, lat, 1e-9);
  }
});

// ---------- The map-points binary ----------

test('Int16 pairs decode to world coordinates (lon = x/32767·180, lat = y/90·32767)', () => {
  const florence = [Math.round((11.24626 / 180) * 32767), Math.round((43.77925 / 90) * 32767)];
  const reykjavik = [Math.round((-21.89541 / 180) * 32767), Math.round((64.13548 / 90) * 32767)];
  const bytes = new ArrayBuffer(8);
  const view = new DataView(bytes);
  view.setInt16(0, florence[0], true);
  view.setInt16(2, florence[1], true);
  view.setInt16(4, reykjavik[0], true);
  view.setInt16(6, reykjavik[1], true);
  const points = decodePoints(new Int16Array(bytes));
  assert.equal(points.length, 4);
  const f = project(11.24626, 43.77925);
  const r = project(-21.89541, 64.13548);
  close(points[0], f.x, 1e-5);
  close(points[1], f.y, 1e-4);
  close(points[2], r.x, 1e-5);
  close(points[3], r.y, 1e-4);
  assert.equal(decodePoints(new Int16Array(0)).length, 0);
});

test('the extremes of Int16 are the edges of the world', () => {
  const points = decodePoints(Int16Array.from([-32767, -32767, 32767, 32767]));
  close(points[0], 0, 1e-6);
  close(points[1], 1, 1e-6);
  close(points[2], 1, 1e-6);
  close(points[3], 0, 1e-6);
});

// ---------- Views ----------

test('the view fitted to a cluster shows every city inside the padding', () => {
  const cities = [
    [11.24626, 43.77925],
    [11.29, 43.8],
    [11.19, 43.75],
    [11.32, 43.7],
    [11.2, 43.83],
  ].map(([lon, lat]) => project(lon, lat));
  const view = fitView(cities, 320, 240, { padding: 20 });
  for (const p of cities) {
    const [x, y] = toScreen(view, 320, 240, p.x, p.y);
    assert.ok(x >= 19.99 && x <= 300.01 && y >= 19.99 && y <= 220.01, `(${x}, ${y}) is outside the padded map`);
  }
  assert.ok(view.scale > TILE * 2 ** 9, 'a 10 km cluster is shown close up');
});

test('one city is shown at the maximum zoom given; no city shows the whole world', () => {
  const one = fitView([project(11.2, 43.7)], 300, 200, { maxScale: TILE * 2 ** 11 });
  assert.equal(one.scale, TILE * 2 ** 11);
  const none = fitView([], 300, 200);
  assert.deepEqual([none.cx, none.cy], [0.5, 0.5]);
  assert.ok(none.scale >= MIN_SCALE);
});

test('screen and world coordinates round-trip', () => {
  const view = { cx: 0.53, cy: 0.36, scale: 5000 };
  const p = fromScreen(view, 400, 300, 123, 45);
  const [x, y] = toScreen(view, 400, 300, p.x, p.y);
  close(x, 123, 1e-9);
  close(y, 45, 1e-9);
});

test('zooming keeps the point under the cursor in place', () => {
  const view = { cx: 0.53, cy: 0.36, scale: 5000 };
  const before = fromScreen(view, 400, 300, 300, 80);
  const zoomed = zoomAt(view, 2, 300, 80, 400, 300);
  assert.equal(zoomed.scale, 10000);
  const after = fromScreen(zoomed, 400, 300, 300, 80);
  close(after.x, before.x, 1e-9);
  close(after.y, before.y, 1e-9);
});

test('zoom stops at the whole world and at street level', () => {
  const view = { cx: 0.5, cy: 0.5, scale: 300 };
  assert.ok(zoomAt(view, 1e-6, 10, 10, 400, 300).scale >= MIN_SCALE);
  assert.ok(zoomAt(view, 1e9, 10, 10, 400, 300).scale <= TILE * 2 ** 18);
});

test('dragging pans the map with the finger, and never off the world', () => {
  const view = { cx: 0.5, cy: 0.5, scale: 1000 };
  const moved = panBy(view, 100, -50);
  close(moved.cx, 0.4, 1e-12);
  close(moved.cy, 0.55, 1e-12);
  const far = panBy(view, 1e6, 1e6);
  assert.deepEqual([far.cx, far.cy], [0, 0]);
});

test('the tiles for a view cover it, at the zoom level of its scale', () => {
  const view = { cx: 0.53, cy: 0.36, scale: TILE * 2 ** 5 };
  const tiles = tilesFor(view, 400, 300);
  assert.ok(tiles.every((t) => t.z === 5 && t.size === TILE));
  const minLeft = Math.min(...tiles.map((t) => t.left));
  const maxRight = Math.max(...tiles.map((t) => t.left + t.size));
  const minTop = Math.min(...tiles.map((t) => t.top));
  const maxBottom = Math.max(...tiles.map((t) => t.top + t.size));
  assert.ok(minLeft <= 0 && maxRight >= 400 && minTop <= 0 && maxBottom >= 300);
  assert.ok(tiles.length <= 9);
  const world = tilesFor({ cx: 0.5, cy: 0.5, scale: 256 }, 1000, 1000);
  assert.deepEqual(
    world.map((t) => [t.z, t.x, t.y]),
    [[0, 0, 0]],
  );
});

test('a tap picks the nearest city within reach', () => {
  const points = [
    [10, 10],
    [50, 50],
    [54, 50],
  ];
  assert.equal(nearestIndex(points, 53, 51), 2);
  assert.equal(nearestIndex(points, 12, 8), 0);
  assert.equal(nearestIndex(points, 200, 200), -1);
});

// ---------- Distance ----------

test('distances on the globe', () => {
  close(distanceKm(43.77925, 11.24626, 43.77925, 11.24626), 0, 1e-9);
  close(distanceKm(43.77925, 11.24626, 41.89193, 12.51133), 232, 3, 'Florence to Rome');
  close(distanceKm(51.5074, -0.1278, 40.7128, -74.006), 5570, 15, 'London to New York');
  close(distanceKm(0, 0, 0, 180), Math.PI * 6371.0088, 1e-6, 'half way round');
});

// ---------- Weather icons ----------

test('every condition has an icon; clear and partly cloudy have night forms', () => {
  assert.equal(iconKey('clear', true), 'clear');
  assert.equal(iconKey('clear', false), 'clear-night');
  assert.equal(iconKey('partly_cloudy', false), 'partly_cloudy-night');
  assert.equal(iconKey('rain', false), 'rain');
  assert.equal(iconKey('volcanic_ash'), 'unknown');
  const drawings = new Set();
  for (const condition of CONDITIONS) {
    const svg = weatherSVG(condition, true);
    assert.match(svg, /^<svg [^>]*viewBox="0 0 24 24"[^>]*>.*<\/svg>$/s, condition);
    assert.ok(!/style=/.test(svg), 'no inline styles (the CSP forbids them)');
    drawings.add(svg.replace(/class="wx wx-[^"]*"/, ''));
  }
  assert.equal(drawings.size, CONDITIONS.length, 'each condition looks different');
  assert.notEqual(weatherSVG('clear', false), weatherSVG('clear', true), 'the moon at night');
  assert.match(weatherSVG('clear', false), /wx-moon/);
  assert.match(weatherSVG('clear', true), /wx-sun/);
});

test('icons carry an accessible name when given one, and no markup from it', () => {
  assert.match(weatherSVG('rain', true, 'Light rain'), /role="img" aria-label="Light rain"/);
  assert.match(weatherSVG('rain', true), /aria-hidden="true"/);
  assert.ok(!weatherSVG('fog', true, '<b>"x"</b>').includes('<b>'));
  assert.match(weatherSVG('unavailable', true, 'Weather unavailable'), /wx-unavailable/);
});
