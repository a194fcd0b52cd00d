// City Roulette: where city names go on the map (pure, no DOM; tests/js/cities-labels.test.mjs).

/** Whether two boxes [x0, y0, x1, y1] overlap. */
export const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

/**
 * Places labels beside their dots, most important first (callers order `items` by population), each at the first
 * of right, left, above, below and the four diagonals that stays on screen and clear of every label placed and
 * every dot. A label with no such place is left out, except the first (the largest city in view, often amid its
 * suburbs): it goes where it covers the fewest dots, since a map of Florence without "Florence" tells a person
 * little. items: [{ x, y, text, r = 5 }]; measure(text) → width in px; taken: boxes already used. Returns
 * [{ index, text, x, y, box }], x, y the text's left and middle.
 */
export function placeLabels(items, { width, height, measure, taken = [], lineHeight = 16, gap = 3, margin = 2 } = {}) {
  const dots = items.map(({ x, y, r = 5 }) => [x - r, y - r, x + r, y + r]);
  const placed = taken.map((box) => ({ box }));
  items.forEach((item, index) => {
    const w = measure(item.text);
    const h = lineHeight;
    const r = item.r ?? 5;
    const corner = (r + gap) * Math.SQRT1_2; // a diagonal label's corner, just clear of the dot
    const spots = [
      [item.x + r + gap, item.y - h / 2],
      [item.x - r - gap - w, item.y - h / 2],
      [item.x - w / 2, item.y - r - gap - h],
      [item.x - w / 2, item.y + r + gap],
      // In a cluster (a city amid its suburbs) the four sides are often taken by neighbours' dots.
      [item.x + corner, item.y - corner - h],
      [item.x + corner, item.y + corner],
      [item.x - corner - w, item.y - corner - h],
      [item.x - corner - w, item.y + corner],
    ];
    let spot = null; // the first clear one; for the first item, else the one covering the fewest dots
    for (const [x, y] of spots) {
      const box = [x, y, x + w, y + h];
      if (x < margin || y < margin || box[2] > width - margin || box[3] > height - margin) continue;
      if (placed.some((p) => overlaps(p.box, box))) continue;
      const covered = dots.filter((d, j) => j !== index && overlaps(d, box)).length;
      if (covered === 0) {
        spot = { x, y, box };
        break;
      }
      if (index === 0 && (!spot || covered < spot.covered)) spot = { x, y, box, covered };
    }
    if (spot) placed.push({ index, text: item.text, x: spot.x, y: spot.y + h / 2, box: spot.box });
  });
  return placed.slice(taken.length);
}

/**
 * Where the selected city's boxed label goes: centred above its dot (below, near the top), kept on the map; moved
 * below, above, then beside a control (`avoid`, boxes such as the zoom buttons) it would sit under. w, h: the
 * label's size. Returns [left, top].
 */
export function placeTag({ x, y, w, h, width, height, avoid = [] }) {
  const left = Math.max(4, Math.min(width - w - 4, x - w / 2));
  const above = y - h - 18;
  const below = y + 16;
  const tops = above < 4 ? [below, above] : [above, below];
  const clear = (l, t) => !avoid.some((box) => overlaps(box, [l, t, l + w, t + h]));
  for (const top of tops) if (top >= 4 && top + h <= height - 4 && clear(left, top)) return [left, top];
  for (const box of avoid) {
    for (const l of [box[0] - w - 4, box[2] + 4]) if (l >= 4 && l + w <= width - 4 && clear(l, tops[0])) return [l, tops[0]];
  }
  return [left, tops[0]];
}

/** A scale bar's length: the longest round distance (1, 2 or 5 × 10ⁿ m) that fits in `maxPx`. */
export function scaleBar(metresPerPixel, maxPx = 100) {
  const most = metresPerPixel * maxPx;
  const power = 10 ** Math.floor(Math.log10(most));
  const metres = [5, 2, 1].map((k) => k * power).find((m) => m <= most) ?? power;
  return { metres, px: metres / metresPerPixel, text: metres >= 1000 ? `${metres / 1000} km` : `${metres} m` };
}
