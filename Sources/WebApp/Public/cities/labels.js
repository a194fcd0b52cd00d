// City Roulette: where city names go on the map (pure, no DOM; tests/js/cities-labels.test.mjs).

/** Whether two boxes [x0, y0, x1, y1] overlap. */
export const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

/**
 * Places labels beside their dots, most important first (callers order `items` by population), each at
 * the first of right, left, above and below that stays on screen and clear of every label placed and
 * every dot; a label with no such place is left out. items: [{ x, y, text, r = 5 }];
 * measure(text) → width in px; taken: boxes already used. Returns [{ index, text, x, y, box }], x, y the
 * text's left and middle.
 */
export function placeLabels(items, { width, height, measure, taken = [], lineHeight = 16, gap = 3, margin = 2 } = {}) {
  const dots = items.map(({ x, y, r = 5 }) => [x - r, y - r, x + r, y + r]);
  const placed = taken.map((box) => ({ box }));
  items.forEach((item, index) => {
    const w = measure(item.text);
    const h = lineHeight;
    const r = item.r ?? 5;
    const spots = [
      [item.x + r + gap, item.y - h / 2],
      [item.x - r - gap - w, item.y - h / 2],
      [item.x - w / 2, item.y - r - gap - h],
      [item.x - w / 2, item.y + r + gap],
    ];
    for (const [x, y] of spots) {
      const box = [x, y, x + w, y + h];
      if (x < margin || y < margin || box[2] > width - margin || box[3] > height - margin) continue;
      if (placed.some((p) => overlaps(p.box, box)) || dots.some((d, j) => j !== index && overlaps(d, box))) continue;
      placed.push({ index, text: item.text, x, y: y + h / 2, box });
      break;
    }
  });
  return placed.slice(taken.length);
}

/** A scale bar's length: the longest round distance (1, 2 or 5 × 10ⁿ m) that fits in `maxPx`. */
export function scaleBar(metresPerPixel, maxPx = 100) {
  const most = metresPerPixel * maxPx;
  const power = 10 ** Math.floor(Math.log10(most));
  const metres = [5, 2, 1].map((k) => k * power).find((m) => m <= most) ?? power;
  return { metres, px: metres / metresPerPixel, text: metres >= 1000 ? `${metres / 1000} km` : `${metres} m` };
}
