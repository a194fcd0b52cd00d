// Magnetic Poetry: where magnets go, pure (node tests in tests/js). Boxes are {x, y, w, h}, x and y the top-left.

/** Packs widths in rows from the top-left (`gap` between, `rowGap` between rows, `margin` around), wrapping at the width; a word wider than a row has a row of its own. Answers top-left corners. */
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

/** The tray: tiles of one height in rows, `rows` rows to a page. Answers {places: [{x, y, page}], pages}. */
export function layoutTray(widths, { width, rowHeight, gap = 0, rowGap = 0, margin = 0, rows = Infinity }) {
  const perPage = Math.max(1, Math.floor(rows) || 1);
  const flat = layoutMagnets(
    widths.map((w) => Math.min(Number(w) || 0, width - 2 * margin)),
    {
      boardWidth: width,
      magnetHeight: rowHeight,
      gap,
      rowGap,
      margin,
    },
  );
  const step = rowHeight + rowGap;
  const places = flat.map((p) => {
    const row = Math.round((p.y - margin) / step);
    return { x: p.x, y: margin + (row % perPage) * step, page: Math.floor(row / perPage) };
  });
  const pages = places.length ? places[places.length - 1].page + 1 : 1;
  return { places, pages };
}

/** Whether boxes a and b come closer than `gap` (touching at exactly `gap` is apart). */
export function overlaps(a, b, gap = 0) {
  return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
}

const clampInto = (value, low, high) => (high < low ? low : Math.min(high, Math.max(low, value)));

/** A place for a box of `size` touching none of `boxes` (`gap` apart), `margin` inside the board (and between `top` and `bottom`, the part in view, where it fits): the first free of `prefer`, else the free place nearest `target`; {x, y, free}. */
export function freeSpot(
  boxes,
  size,
  { width, height, gap = 0, margin = 0, prefer = [], target = null, step = 0, top = 0, bottom = Infinity },
) {
  const { w, h } = size;
  const maxX = width - margin - w;
  const band = Math.min(height - margin, bottom) - h >= Math.max(margin, top);
  const minY = band ? Math.max(margin, top) : margin;
  const maxY = band ? Math.min(height - margin, bottom) - h : height - margin - h;
  const inside = (p) => ({ x: clampInto(p.x, margin, maxX), y: clampInto(p.y, minY, maxY) });
  const isFree = (p) => !boxes.some((b) => overlaps({ x: p.x, y: p.y, w, h }, b, gap));
  for (const p of prefer) {
    const place = inside(p);
    if (Math.abs(place.x - p.x) < 2 && Math.abs(place.y - p.y) < 2 && isFree(place)) return { ...place, free: true };
  }
  const goal = inside(target || prefer[0] || { x: margin, y: minY });
  const stride = step > 0 ? step : Math.max(2, Math.min(w, h) / 3);
  const candidates = [];
  for (let y = minY; y <= Math.max(minY, maxY) + 0.001; y += stride) {
    for (let x = margin; x <= Math.max(margin, maxX) + 0.001; x += stride) candidates.push({ x, y });
  }
  // The goal itself and the grid points on its row and column, so a small shift is found exactly.
  candidates.push(goal);
  for (let x = margin; x <= maxX; x += stride) candidates.push({ x, y: goal.y });
  for (let y = minY; y <= maxY; y += stride) candidates.push({ x: goal.x, y });
  const distance = (p) => (p.x - goal.x) ** 2 + (p.y - goal.y) ** 2;
  candidates.sort((a, b) => distance(a) - distance(b));
  for (const p of candidates) {
    const place = inside(p);
    if (isFree(place)) return { ...place, free: true };
  }
  return { ...goal, free: false };
}

/** Where a new magnet goes: right of `last`, else at the start of the next line (`lineStart`, the x of its line's first word), else below `last`, else the nearest free place; between `top` and `bottom` where it fits. */
export function placeNear(others, size, last, { width, height, gap = 0, margin = 0, lineStart = margin, top = 0, bottom = Infinity }) {
  const below = last && last.y + last.h + gap;
  const prefer = last
    ? [
        { x: last.x + last.w + gap, y: last.y },
        { x: lineStart, y: below },
        { x: last.x, y: below },
      ]
    : [{ x: margin, y: Math.max(margin, top) }];
  return freeSpot(others, size, { width, height, gap, margin, prefer, target: prefer[0], top, bottom });
}
