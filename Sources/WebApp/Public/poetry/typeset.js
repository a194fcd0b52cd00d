// Magnetic Poetry: a poem's lines kept whole at any font and size, pure (node tests in tests/js/layout.test.mjs).
// Loaded by board.js once a board has words (an empty board's first view does without it), and by style.js.
import { freeSpot, overlaps } from './layout.js';

/** The poem's lines as spelling.js `readingOrder` reads them: top to bottom, each its boxes' indices left to right. */
export function linesOfBoxes(boxes) {
  const order = boxes.map((b, i) => i);
  const centre = (i) => boxes[i].y + boxes[i].h / 2;
  order.sort((i, j) => centre(i) - centre(j) || boxes[i].x - boxes[j].x);
  const lines = [];
  let line = null;
  for (const i of order) {
    const tolerance = boxes[i].h / 2 || 1e-9;
    if (line && Math.abs(centre(i) - line.centre) <= tolerance) {
      line.items.push(i);
      line.centre += (centre(i) - line.centre) / line.items.length;
    } else {
      line = { centre: centre(i), items: [i] };
      lines.push(line);
    }
  }
  return lines.map((l) => l.items.sort((i, j) => boxes[i].x - boxes[j].x));
}

/**
 * Where each magnet is drawn, the poem reading as stored at any font and size (a free place for a word grown into the
 * next rewrote it): a line's words stay in order, each pushed right clear of the one before; a line moves left, or
 * down clear of those above, as a whole; one wider than the board wraps as a unit (`wrap`); the poem moves up as a whole.
 * {places, fits}: fits is false past the board, or where a line had to wrap.
 */
export function typeset(boxes, { width, height }) {
  const places = boxes.map((b) => ({ x: Math.max(0, b.x), y: Math.max(0, b.y) }));
  const box = (i) => ({ ...places[i], w: boxes[i].w, h: boxes[i].h });
  const drawn = [];
  let fits = true;
  const slack = 0.5; // px
  for (const line of linesOfBoxes(boxes)) {
    let right = -Infinity;
    for (const i of line) {
      places[i].x = Math.max(places[i].x, right);
      right = places[i].x + boxes[i].w;
    }
    const over = right - width;
    let rows = [line];
    if (over > 0) {
      const left = Math.min(over, places[line[0]].x);
      for (const i of line) places[i].x -= left;
      if (over - left > slack) {
        fits = false;
        rows = wrap(line, places, boxes, width);
      }
    }
    for (const row of rows) {
      for (let round = 0; round <= drawn.length; round += 1) {
        let down = 0;
        for (const i of row) for (const d of drawn) if (overlaps(box(i), d)) down = Math.max(down, d.y + d.h - places[i].y);
        if (down <= 0) break;
        for (const i of row) places[i].y += down;
      }
      for (const i of row) drawn.push(box(i));
    }
  }
  const bottom = Math.max(0, ...drawn.map((d) => d.y + d.h));
  if (bottom > height) {
    const up = Math.min(bottom - height, ...places.map((p) => p.y));
    for (const p of places) p.y -= up;
    if (bottom - up - height > slack) {
      fits = false;
      // Taller than the board even so (a poem of very many words from a bigger screen): what is past its foot goes
      // to the nearest free place inside, so every word can still be seen and moved.
      const inside = boxes.map((b, i) => i).filter((i) => places[i].y + boxes[i].h <= height + slack);
      const settled = inside.map(box);
      for (const i of boxes.map((b, j) => j).filter((j) => !inside.includes(j))) {
        const spot = freeSpot(settled, boxes[i], { width, height, target: places[i] });
        Object.assign(places[i], { x: spot.x, y: spot.y });
        settled.push(box(i));
      }
    }
  }
  return { places, fits };
}

/**
 * A line wider than the board (a poem written on a wider screen, or at a size that no longer fits): it wraps as a unit,
 * its words in order, each row as far left as the line starts and below the one before (typeset's next step).
 */
function wrap(line, places, boxes, width) {
  const rows = [];
  const start = places[line[0]].x;
  const gaps = line.map((i, k) => (k ? Math.max(0, places[i].x - (places[line[k - 1]].x + boxes[line[k - 1]].w)) : 0));
  let row = [];
  let x = start;
  line.forEach((i, k) => {
    const space = gaps[k];
    if (row.length && x + space + boxes[i].w > width) {
      rows.push(row);
      row = [];
      x = start;
    } else x += space;
    places[i].x = x;
    x += boxes[i].w;
    row.push(i);
  });
  rows.push(row);
  return rows;
}
