// Unit tests for City Roulette's map labels and scale bar (Public/cities/labels.js) and the basemap's
// decoding (Public/cities/basemap.js): `node --test tests/js/*.test.mjs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { overlaps, placeLabels, placeTag, scaleBar } from '../../Sources/WebApp/Public/cities/labels.js';
import { decodeBasemap } from '../../Sources/WebApp/Public/cities/basemap.js';
import { project } from '../../Sources/WebApp/Public/cities/geo.js';

const measure = (text) => text.length * 7;
const view = { width: 300, height: 200, measure };

test('a lone city is named to the right of its dot', () => {
  const [label] = placeLabels([{ x: 100, y: 100, text: 'Florence' }], view);
  assert.equal(label.text, 'Florence');
  assert.ok(label.x > 100 && Math.abs(label.y - 100) < 1, JSON.stringify(label));
});

test("no two labels overlap, and none covers another city's dot", () => {
  const items = [];
  for (let i = 0; i < 40; i += 1) items.push({ x: 20 + (i % 8) * 35, y: 20 + Math.floor(i / 8) * 35, text: `Town ${i}` });
  const placed = placeLabels(items, view);
  assert.ok(placed.length > 5 && placed.length < items.length, `${placed.length} placed`);
  for (const a of placed) {
    for (const b of placed) if (a !== b) assert.ok(!overlaps(a.box, b.box), `${a.text} overlaps ${b.text}`);
    items.forEach((it, j) => {
      if (j !== a.index) assert.ok(!overlaps(a.box, [it.x - 5, it.y - 5, it.x + 5, it.y + 5]), `${a.text} covers ${it.text}'s dot`);
    });
  }
});

test('the most important city keeps its first choice; a close neighbour is named on the other side', () => {
  const placed = placeLabels(
    [
      { x: 100, y: 100, text: 'Florence' },
      { x: 100, y: 112, text: 'Fiesole' },
    ],
    view,
  );
  const [florence, fiesole] = placed;
  assert.equal(florence.text, 'Florence');
  assert.ok(florence.x > 100, 'Florence keeps the right-hand side');
  assert.equal(fiesole.text, 'Fiesole');
  assert.ok(fiesole.box[2] < 100, 'Fiesole goes to the left');
  assert.ok(!overlaps(fiesole.box, florence.box));
});

test('a city amid its suburbs is named on a diagonal, or over the fewest dots; a suburb never over another dot', () => {
  // Florence with a suburb on each side: the four sides are taken, a diagonal is not.
  const sides = [
    { x: 100, y: 100, text: 'Florence' },
    { x: 112, y: 100, text: 'East' },
    { x: 60, y: 100, text: 'West' },
    { x: 100, y: 86, text: 'North' },
    { x: 100, y: 114, text: 'South' },
  ];
  const [florence] = placeLabels(sides, view);
  assert.equal(florence.index, 0);
  sides.slice(1).forEach((s) => assert.ok(!overlaps(florence.box, [s.x - 5, s.y - 5, s.x + 5, s.y + 5]), `over ${s.text}`));
  // Every spot taken by a dot: the largest city is still named, over one dot; a suburb in the same place is not.
  const ring = [{ x: 100, y: 100, text: 'Florence' }];
  for (let i = 0; i < 16; i += 1)
    ring.push({ x: 100 + 22 * Math.cos((i * Math.PI) / 8), y: 100 + 14 * Math.sin((i * Math.PI) / 8), text: `S${i}` });
  const placed = placeLabels(ring, view);
  const named = placed.find((l) => l.index === 0);
  assert.ok(named, 'Florence has no label');
  const covered = ring.slice(1).filter((s) => overlaps(named.box, [s.x - 5, s.y - 5, s.x + 5, s.y + 5])).length;
  assert.ok(covered > 0 && covered <= 3, `covers ${covered} dots`);
  for (const l of placed.filter((l) => l.index !== 0)) {
    ring.forEach((s, j) => j !== l.index && assert.ok(!overlaps(l.box, [s.x - 5, s.y - 5, s.x + 5, s.y + 5]), `${l.text} over ${s.text}`));
  }
  const smaller = placeLabels([...ring.slice(1), { x: 100, y: 100, text: 'Late' }], view);
  assert.ok(!smaller.some((l) => l.text === 'Late'), 'a city not the largest is named over a dot');
});

test('labels stay on the canvas: a city at the right edge is named on its left', () => {
  const [label] = placeLabels([{ x: 290, y: 100, text: 'Edge' }], view);
  assert.ok(label.box[2] <= 300 && label.x < 290, JSON.stringify(label));
  assert.deepEqual(placeLabels([{ x: 5, y: 5, text: 'A very long name that fits nowhere at all here' }], view), []);
});

test("boxes already taken (the selected city's label) are avoided", () => {
  const placed = placeLabels([{ x: 100, y: 100, text: 'Fiesole' }], { ...view, taken: [[100, 80, 200, 120]] });
  assert.equal(placed.length, 1);
  assert.ok(!overlaps(placed[0].box, [100, 80, 200, 120]));
});

test('the scale bar is a round distance no longer than its room', () => {
  assert.deepEqual(scaleBar(10, 100), { metres: 1000, px: 100, text: '1 km' });
  const bar = scaleBar(37, 100);
  assert.equal(bar.metres, 2000);
  assert.ok(bar.px <= 100 && bar.px > 50);
  assert.equal(scaleBar(0.3, 100).text, '20 m');
  assert.equal(scaleBar(60000, 100).text, '5000 km');
});

test('a basemap decodes its delta-encoded rings into world coordinates with a bounding box', () => {
  const json = {
    format: 'trove-basemap-1',
    unit: 0.01,
    countries: [{ iso: 'IS', name: 'Iceland', rings: [[-2430, 6560, 330, 70, 600, 20, 140, -140]] }],
  };
  const [iceland] = decodeBasemap(json);
  assert.equal(iceland.iso, 'IS');
  assert.equal(iceland.rings[0].length, 8);
  const last = project(-13.6, 65.1);
  assert.ok(Math.abs(iceland.rings[0][6] - last.x) < 1e-6 && Math.abs(iceland.rings[0][7] - last.y) < 1e-6);
  const west = project(-24.3, 65.6);
  assert.ok(Math.abs(iceland.box[0] - west.x) < 1e-6);
  assert.equal(decodeBasemap({ format: 'other' }), null);
});

test("the selected city's label sits above its dot, and never under the zoom buttons", () => {
  const map = { w: 140, h: 22, width: 375, height: 300 };
  const zoom = [323, 8, 367, 148]; // three buttons at the top right
  assert.deepEqual(placeTag({ ...map, x: 150, y: 100, avoid: [zoom] }), [80, 60]);
  // Near the top right ("Scandicci · 44,951" under the buttons): below the dot while that is clear...
  const [l1, t1] = placeTag({ ...map, x: 340, y: 60, avoid: [zoom] });
  assert.ok(!overlaps(zoom, [l1, t1, l1 + 140, t1 + 22]), `${l1},${t1}`);
  // ...and beside the buttons when above and below are both under them.
  const [l2, t2] = placeTag({ ...map, x: 345, y: 90, avoid: [zoom] });
  assert.ok(!overlaps(zoom, [l2, t2, l2 + 140, t2 + 22]) && l2 >= 4 && l2 + 140 <= 371, `${l2},${t2}`);
  // Without controls, as before: clamped to the map, below the dot near the top.
  assert.deepEqual(placeTag({ ...map, x: 370, y: 20 }), [231, 36]);
});
