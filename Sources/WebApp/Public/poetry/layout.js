// Magnetic Poetry: the two pure functions of the board, no DOM (node --test tests/js/ runs them).

/**
 * Packs magnets in rows from the top, as on a fresh fridge: each magnet keeps its measured width, with
 * `gap` between words, `rowGap` between rows and `margin` on every side, wrapping at the board's width.
 * A word wider than a row gets a row of its own and is clamped inside the board. With `boardHeight`,
 * rows that would run past the bottom margin stay on the last row that fits (they overlap there).
 * Returns the top-left corner of each magnet, in the same unit as the input (px).
 */
export function layoutMagnets(widths, { boardWidth, boardHeight = Infinity, magnetHeight, gap = 0, rowGap = 0, margin = 0 }) {
  const right = boardWidth - margin;
  const lowest = Math.max(margin, boardHeight - margin - magnetHeight);
  const places = [];
  let x = margin;
  let y = margin;
  let rowHasWords = false;
  for (const raw of widths) {
    const width = Math.max(0, Number(raw) || 0);
    if (rowHasWords && x + width > right) {
      x = margin;
      y += magnetHeight + rowGap;
      rowHasWords = false;
    }
    const top = Math.min(y, lowest);
    if (width > right - margin) {
      // Too wide for a row: alone on its row, pulled left so it ends inside the board if it can.
      places.push({ x: Math.max(0, Math.min(margin, boardWidth - width)), y: top });
      x = right + 1; // whatever comes next starts a new row
    } else {
      places.push({ x, y: top });
      x += width + gap;
    }
    rowHasWords = true;
  }
  return places;
}

/**
 * The words of a poem in reading order: magnets whose vertical centres lie within about half a magnet
 * height of a row's centre share that row; rows go top to bottom, words left to right.
 * `magnets`: [{word, x, y, height?}] with x, y the top-left corner (any one unit for all).
 * Returns [[word, …], …], one array per row.
 */
export function readingOrder(magnets, { magnetHeight } = {}) {
  const items = magnets.map((magnet) => {
    const height = Number(magnet.height ?? magnetHeight ?? 0) || 0;
    return { word: String(magnet.word), x: Number(magnet.x) || 0, centre: (Number(magnet.y) || 0) + height / 2, height };
  });
  items.sort((a, b) => a.centre - b.centre || a.x - b.x);
  const rows = [];
  let row = null;
  for (const item of items) {
    const tolerance = item.height / 2 || 1e-9;
    if (row && Math.abs(item.centre - row.centre) <= tolerance) {
      row.items.push(item);
      row.centre += (item.centre - row.centre) / row.items.length; // running mean keeps long rows from drifting
    } else {
      row = { centre: item.centre, items: [item] };
      rows.push(row);
    }
  }
  return rows.map((r) => r.items.sort((a, b) => a.x - b.x).map((item) => item.word));
}
