// Unit tests for the Magnetic Poetry board's pure layout functions: `node --test tests/js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { layoutMagnets, layoutTray, freeSpot, placeNear, overlaps } from '../../Sources/WebApp/Public/poetry/layout.js';
import { typeset, linesOfBoxes } from '../../Sources/WebApp/Public/poetry/typeset.js';
import { scalePoem } from '../../Sources/WebApp/Public/poetry/style.js';

const phone = { boardWidth: 320, magnetHeight: 24, gap: 6, rowGap: 8, margin: 12 };

/** Asserts that no two magnets overlap and every one is inside the board. */
function assertTidy(widths, places, { boardWidth, boardHeight = Infinity, magnetHeight }) {
  places.forEach((p, i) => {
    assert.ok(p.x >= 0 && p.x + widths[i] <= boardWidth, `magnet ${i} (x ${p.x}, width ${widths[i]}) leaves a ${boardWidth} px board`);
    assert.ok(p.y >= 0 && p.y + magnetHeight <= boardHeight, `magnet ${i} is below the board`);
  });
  for (let i = 0; i < places.length; i += 1) {
    for (let j = i + 1; j < places.length; j += 1) {
      const a = places[i];
      const b = places[j];
      const apart = a.x + widths[i] <= b.x || b.x + widths[j] <= a.x || a.y + magnetHeight <= b.y || b.y + magnetHeight <= a.y;
      assert.ok(apart, `magnets ${i} and ${j} overlap`);
    }
  }
}

test('an empty word list gives no places', () => {
  assert.deepEqual(layoutMagnets([], phone), []);
});

test('words that fit go in one row from the top-left margin, a gap apart', () => {
  const places = layoutMagnets([50, 60, 70], phone);
  assert.deepEqual(places, [
    { x: 12, y: 12 },
    { x: 68, y: 12 },
    { x: 134, y: 12 },
  ]);
});

test('a word that would cross the right margin starts the next row, a row gap below', () => {
  // 12 + 100 + 6 + 100 + 6 = 224; a third word of 90 would end at 314 > 320 - 12.
  const places = layoutMagnets([100, 100, 90, 40], phone);
  assert.deepEqual(places, [
    { x: 12, y: 12 },
    { x: 118, y: 12 },
    { x: 12, y: 44 },
    { x: 108, y: 44 },
  ]);
});

test('a word may end exactly at the right margin', () => {
  const places = layoutMagnets([100, 190], phone); // 12 + 100 + 6 + 190 = 308 = 320 - 12
  assert.deepEqual(places, [
    { x: 12, y: 12 },
    { x: 118, y: 12 },
  ]);
});

test('every row keeps the margin on the left and the right', () => {
  const widths = Array.from({ length: 60 }, (_, i) => 20 + ((i * 37) % 90));
  const places = layoutMagnets(widths, phone);
  places.forEach((p, i) => {
    assert.ok(p.x >= phone.margin, `magnet ${i} starts inside the left margin`);
    assert.ok(p.x + widths[i] <= phone.boardWidth - phone.margin, `magnet ${i} ends inside the right margin`);
    assert.ok(p.y >= phone.margin, `magnet ${i} is inside the top margin`);
  });
  const rows = new Set(places.map((p) => p.y));
  assert.ok(rows.size > 5, 'sixty words need several rows');
  const ys = [...rows].sort((a, b) => a - b);
  ys.slice(1).forEach((y, i) => assert.equal(y - ys[i], phone.magnetHeight + phone.rowGap, 'rows are evenly spaced'));
});

test('on a 320 px board every word stays on screen and none overlap', () => {
  const widths = [34, 61, 48, 90, 27, 75, 55, 120, 66, 41, 38, 99, 52, 23, 87, 64, 30, 58, 71, 45];
  const places = layoutMagnets(widths, phone);
  assertTidy(widths, places, phone);
  // Reading the places row by row keeps the words' order.
  const order = places
    .map((p, i) => [p.y, p.x, i])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map((e) => e[2]);
  assert.deepEqual(
    order,
    widths.map((_, i) => i),
  );
});

test('a single word wider than a row gets a row of its own and is clamped inside the board', () => {
  const widths = [40, 310, 40];
  const places = layoutMagnets(widths, phone);
  assert.equal(places[0].y, 12);
  assert.equal(places[1].y, 44, 'the long word starts a new row');
  assert.equal(places[2].y, 76, 'the next word starts another row');
  assert.equal(places[1].x, 10, 'pulled left so that it ends at the board edge');
  assert.ok(places[1].x + 310 <= 320);
  assert.equal(places[2].x, 12);
});

test('a word wider than the whole board starts at its left edge', () => {
  const places = layoutMagnets([400], phone);
  assert.deepEqual(places, [{ x: 0, y: 12 }]);
});

test('a long word first on the board does not leave an empty row above it', () => {
  const places = layoutMagnets([300, 20], phone);
  assert.deepEqual(places, [
    { x: 12, y: 12 },
    { x: 12, y: 44 },
  ]);
});

test('with a board height, rows that would fall off the bottom stay on the last row that fits', () => {
  const options = { ...phone, boardHeight: 100 };
  const places = layoutMagnets([300, 300, 300, 300], options);
  places.forEach((p) => assert.ok(p.y + phone.magnetHeight <= 100 - phone.margin, `y ${p.y} is below the bottom margin`));
  assert.deepEqual(
    places.map((p) => p.y),
    [12, 44, 64, 64],
  );
});

test('bad widths count as zero rather than breaking the layout', () => {
  const places = layoutMagnets([Number.NaN, undefined, 30], phone);
  assert.equal(places.length, 3);
  places.forEach((p) => assert.ok(Number.isFinite(p.x) && Number.isFinite(p.y)));
});

// ---------- layoutTray ----------

test('the tray packs tiles of one height in rows, a page holding `rows` rows', () => {
  const { places, pages } = layoutTray([100, 100, 100, 100, 100, 100, 100], {
    width: 330,
    rowHeight: 44,
    gap: 10,
    rowGap: 6,
    margin: 5,
    rows: 2,
  });
  // three tiles to a row (5 + 100 + 10 + 100 + 10 + 100 = 325), two rows to a page
  assert.deepEqual(
    places.map((p) => p.page),
    [0, 0, 0, 0, 0, 0, 1],
  );
  assert.deepEqual(
    places.map((p) => p.y),
    [5, 5, 5, 55, 55, 55, 5],
  );
  assert.deepEqual(
    places.slice(0, 3).map((p) => p.x),
    [5, 115, 225],
  );
  assert.equal(pages, 2);
});

test('a tile wider than the tray gets a row of its own and stays inside', () => {
  const { places } = layoutTray([40, 900, 40], { width: 200, rowHeight: 44, gap: 8, margin: 4 });
  assert.deepEqual(
    places.map((p) => [p.x, p.y]),
    [
      [4, 4],
      [4, 48],
      [4, 92],
    ],
  );
});

test('an empty tray is one empty page', () => {
  assert.deepEqual(layoutTray([], { width: 300, rowHeight: 44, rows: 2 }), { places: [], pages: 1 });
});

test('a bigger font re-flows the tray into more rows, never overlapping', () => {
  const widths = [34, 61, 48, 90, 27, 75, 55, 120, 66, 41];
  const small = layoutTray(widths, { width: 320, rowHeight: 44, gap: 6, rowGap: 6, rows: 3 });
  const big = layoutTray(
    widths.map((w) => w * 2),
    { width: 320, rowHeight: 60, gap: 6, rowGap: 6, rows: 3 },
  );
  assert.ok(big.pages > small.pages);
  for (const [layout, k, h] of [
    [small, 1, 44],
    [big, 2, 60],
  ]) {
    const boxes = layout.places.map((p, i) => ({ x: p.x, y: p.y + p.page * 10000, w: Math.min(widths[i] * k, 320), h }));
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => assert.ok(!overlaps(a, b), 'tiles overlap')));
  }
});

// ---------- freeSpot and placeNear ----------

const board = { width: 300, height: 200, gap: 4, margin: 8 };

test('a new word goes just right of the last placed word when there is room', () => {
  const last = { x: 20, y: 50, w: 60, h: 30 };
  assert.deepEqual(placeNear([last], { w: 40, h: 30 }, last, board), { x: 84, y: 50, free: true });
});

test('at the end of a line it goes to the start of the next line', () => {
  const first = { x: 30, y: 50, w: 180, h: 30 };
  const last = { x: 220, y: 50, w: 60, h: 30 };
  assert.deepEqual(placeNear([first, last], { w: 40, h: 30 }, last, { ...board, lineStart: 30 }), { x: 30, y: 84, free: true });
  assert.deepEqual(placeNear([first, last], { w: 40, h: 30 }, last, board), { x: 8, y: 84, free: true });
});

test('when the next line is taken there, it goes below the last word', () => {
  const last = { x: 220, y: 50, w: 60, h: 30 };
  const taken = { x: 8, y: 84, w: 200, h: 30 };
  assert.deepEqual(placeNear([last, taken], { w: 40, h: 30 }, last, board), { x: 220, y: 84, free: true });
});

test('on an empty board the first word goes to the top left', () => {
  assert.deepEqual(placeNear([], { w: 40, h: 30 }, null, board), { x: 8, y: 8, free: true });
});

test('a new word never lands on another magnet, and lands near the last one', () => {
  const boxes = [];
  for (let y = 8; y < 120; y += 34) for (let x = 8; x < 240; x += 50) boxes.push({ x, y, w: 46, h: 30 });
  const last = boxes[7];
  const spot = placeNear(boxes, { w: 40, h: 30 }, last, board);
  assert.ok(spot.free);
  assert.ok(!boxes.some((b) => overlaps({ ...spot, w: 40, h: 30 }, b)), 'the spot is on a magnet');
  assert.ok(spot.y + 30 <= 200 - 8 && spot.x >= 8 && spot.x + 40 <= 300 - 8, 'the spot leaves the board');
});

test('a full board answers not free rather than a place on a magnet', () => {
  const spot = freeSpot([{ x: 0, y: 0, w: 300, h: 200 }], { w: 40, h: 30 }, board);
  assert.equal(spot.free, false);
});

test('the free place found is the nearest to the target', () => {
  const blocker = { x: 100, y: 100, w: 50, h: 30 };
  const spot = freeSpot([blocker], { w: 40, h: 30 }, { ...board, gap: 0, target: { x: 105, y: 100 }, step: 1 });
  assert.ok(spot.free);
  // Moving left past the blocker's left edge (60) is 45 px, right (150) 45 px, down (130) 30 px, up (70) 30 px.
  assert.equal(Math.abs(spot.x - 105) + Math.abs(spot.y - 100), 30);
});

// ---------- typeset ----------

const shownAt = (boxes, places) => places.map((p, i) => ({ ...p, w: boxes[i].w, h: boxes[i].h }));
const lineWords = (boxes, places, words) => linesOfBoxes(shownAt(boxes, places)).map((line) => line.map((i) => words[i]).join(' '));
function assertApart(boxes, places) {
  const shown = shownAt(boxes, places);
  shown.forEach((a, i) =>
    shown.forEach((b, j) => {
      if (i < j) assert.ok(!overlaps(a, b), `${i} and ${j} overlap: ${JSON.stringify([a, b])}`);
    }),
  );
}

test('magnets that do not overlap stay exactly where they are stored', () => {
  const boxes = [
    { x: 10, y: 10, w: 50, h: 30 },
    { x: 100, y: 10, w: 50, h: 30 },
    { x: 10, y: 80, w: 80, h: 30 },
  ];
  const { places, fits } = typeset(boxes, board);
  assert.deepEqual(
    places,
    boxes.map(({ x, y }) => ({ x, y })),
  );
  assert.ok(fits);
});

test('a word grown into the next pushes it right: the line keeps its words in their order', () => {
  const boxes = [
    { x: 10, y: 10, w: 90, h: 30 },
    { x: 80, y: 12, w: 50, h: 30 },
    { x: 140, y: 10, w: 40, h: 30 },
    { x: 200, y: 150, w: 50, h: 30 },
  ];
  const { places, fits } = typeset(boxes, board);
  assert.deepEqual(places[0], { x: 10, y: 10 });
  assert.deepEqual(places[1], { x: 100, y: 12 }, 'just clear of the word before, on its own line');
  assert.deepEqual(places[2], { x: 150, y: 10 });
  assert.deepEqual(places[3], { x: 200, y: 150 });
  assert.deepEqual(lineWords(boxes, places, ['a', 'b', 'c', 'd']), ['a b c', 'd']);
  assert.ok(fits);
});

test('a line past the right edge moves left as a whole; one wider than the board does not fit', () => {
  const { places, fits } = typeset([{ x: 280, y: 10, w: 60, h: 30 }], board);
  assert.deepEqual(places, [{ x: 240, y: 10 }]);
  assert.ok(fits);
  const wide = [
    { x: 0, y: 10, w: 200, h: 30 },
    { x: 200, y: 10, w: 200, h: 30 },
  ];
  assert.equal(typeset(wide, board).fits, false);
});

test('a line grown into the one below pushes it down, whole; a poem taller than the board does not fit', () => {
  const boxes = [
    { x: 10, y: 10, w: 60, h: 40 },
    { x: 80, y: 10, w: 60, h: 40 },
    { x: 10, y: 40, w: 60, h: 40 },
    { x: 80, y: 42, w: 60, h: 40 },
  ];
  const { places, fits } = typeset(boxes, board);
  assert.deepEqual(places.slice(2), [
    { x: 10, y: 50 },
    { x: 80, y: 52 },
  ]);
  assertApart(boxes, places);
  assert.ok(fits);
  const tall = Array.from({ length: 12 }, (_, i) => ({ x: 10, y: i * 20, w: 60, h: 30 }));
  assert.equal(typeset(tall, board).fits, false);
});

test('bigger and back: scaled about its top-left, a poem keeps its lines and nothing overlaps', () => {
  const words = 'we were fire and smoke and light the moon is silver'.split(' ');
  const widths = [30, 45, 35, 34, 50, 34, 44, 30, 46, 22, 52];
  const rows = [7, 4];
  const boxes = [];
  let i = 0;
  rows.forEach((count, row) => {
    let x = 12;
    for (let k = 0; k < count; k += 1, i += 1) {
      boxes.push({ x, y: 20 + row * 34, w: widths[i], h: 30 });
      x += widths[i] + 2;
    }
  });
  const width = 375;
  const height = 300;
  const before = lineWords(boxes, typeset(boxes, { width, height }).places, words);
  assert.deepEqual(before, ['we were fire and smoke and light', 'the moon is silver']);
  for (const k of [1.2, 1.3]) {
    const fractions = scalePoem(boxes, k, { width, height });
    const scaled = fractions.map((p, j) => ({ x: p.x * width, y: p.y * height, w: boxes[j].w * k + 1, h: boxes[j].h * k }));
    const { places, fits } = typeset(scaled, { width, height });
    assert.ok(fits, `at ${k}`);
    assertApart(scaled, places);
    assert.deepEqual(lineWords(scaled, places, words), before, `at ${k}`);
  }
});

test('a last word a rounding error outside the margin still has the next word beside it', () => {
  const last = { x: 11, y: 10.99998, w: 20, h: 30 };
  assert.deepEqual(placeNear([last], { w: 44, h: 30 }, last, { width: 375, height: 300, gap: 8, margin: 11 }), {
    x: 39,
    y: 11,
    free: true,
  });
});

test('a new word goes next to the word given, inside the part of the board in view', () => {
  const last = { x: 20, y: 250, w: 40, h: 30 };
  const spot = placeNear([last], { w: 44, h: 30 }, last, { width: 375, height: 400, gap: 8, margin: 11, top: 0, bottom: 200 });
  assert.ok(spot.free && spot.y >= 0 && spot.y + 30 <= 200, `landed at ${JSON.stringify(spot)}, out of view`);
  const shown = placeNear([last], { w: 44, h: 30 }, last, { width: 375, height: 400, gap: 8, margin: 11, top: 100, bottom: 320 });
  assert.deepEqual(shown, { x: 68, y: 250, free: true }, 'in view, it goes right of the word given');
  const none = placeNear([], { w: 44, h: 30 }, null, { width: 375, height: 400, margin: 11, top: 150, bottom: 320 });
  assert.deepEqual(none, { x: 11, y: 150, free: true }, 'with no word to go next to, at the top of the part in view');
});

test('a line wider than the board wraps as a unit: its words in order on rows below, inside the board', () => {
  const words = 'one two three four five six'.split(' ');
  const boxes = words.map((w, i) => ({ x: i * 70, y: 10, w: 80, h: 30 }));
  const below = { x: 10, y: 45, w: 60, h: 30 };
  const { places, fits } = typeset([...boxes, below], board);
  assert.equal(fits, false, 'a wrapped line says the poem does not fit');
  const shown = shownAt([...boxes, below], places);
  assertApart([...boxes, below], places);
  assert.ok(
    shown.every((b) => b.x >= 0 && b.x + b.w <= board.width),
    JSON.stringify(shown),
  );
  assert.deepEqual(lineWords([...boxes, below], places, [...words, 'seven']).join(' '), 'one two three four five six seven');
});

test('a poem taller than the board even wrapped keeps every word inside it', () => {
  const boxes = Array.from({ length: 30 }, (_, i) => ({ x: (i % 5) * 58, y: Math.floor(i / 5) * 30, w: 56, h: 28 }));
  const { places, fits } = typeset(boxes, { width: 300, height: 150 });
  assert.equal(fits, false);
  const shown = shownAt(boxes, places);
  assert.ok(
    shown.every((b) => b.x >= 0 && b.y >= 0 && b.x + b.w <= 300 + 0.5 && b.y + b.h <= 150 + 0.5),
    JSON.stringify(shown),
  );
});
