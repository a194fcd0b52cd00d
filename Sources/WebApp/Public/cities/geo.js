// City Roulette: Web Mercator maths and distances. World x, y run 0–1 (east, south); a view is
// { cx, cy, scale }, scale in CSS px per world unit (256 × 2^zoom).

export const MAX_LAT = 85.0511287798;
export const TILE = 256;
export const MIN_SCALE = 128;
export const MAX_SCALE = TILE * 2 ** 18;

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

export function project(longitude, latitude) {
  const phi = (clamp(latitude, -MAX_LAT, MAX_LAT) * Math.PI) / 180;
  return {
    x: (longitude + 180) / 360,
    y: (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2,
  };
}

export function unproject(x, y) {
  const n = Math.PI * (1 - 2 * y);
  return { longitude: x * 360 - 180, latitude: (Math.atan(Math.sinh(n)) * 180) / Math.PI };
}

/** The map-points binary (Int16 pairs: round(lon/180·32767), round(lat/90·32767)) as a Float32Array of world x, y. */
export function decodePoints(int16) {
  const count = int16.length >> 1;
  const out = new Float32Array(count * 2);
  for (let i = 0; i < count; i += 1) {
    const p = project((int16[2 * i] / 32767) * 180, (int16[2 * i + 1] / 32767) * 90);
    out[2 * i] = p.x;
    out[2 * i + 1] = p.y;
  }
  return out;
}

/** The view showing every point inside width × height, `padding` px around, zoomed in at most to maxScale. */
export function fitView(points, width, height, { padding = 32, maxScale = TILE * 2 ** 13, minSpan = 1e-9 } = {}) {
  if (!points.length) return { cx: 0.5, cy: 0.5, scale: clampScale(Math.min(width, height), height) };
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of points) {
    x0 = Math.min(x0, p.x);
    x1 = Math.max(x1, p.x);
    y0 = Math.min(y0, p.y);
    y1 = Math.max(y1, p.y);
  }
  const w = Math.max(1, width - 2 * padding);
  const h = Math.max(1, height - 2 * padding);
  const scale = Math.min(maxScale, w / Math.max(x1 - x0, minSpan), h / Math.max(y1 - y0, minSpan));
  return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, scale: clampScale(scale, height) };
}

function clampScale(scale, height) {
  return clamp(scale, Math.max(MIN_SCALE, height * 0.5), MAX_SCALE);
}

export const toScreen = (view, width, height, x, y) => [(x - view.cx) * view.scale + width / 2, (y - view.cy) * view.scale + height / 2];

export const fromScreen = (view, width, height, sx, sy) => ({
  x: view.cx + (sx - width / 2) / view.scale,
  y: view.cy + (sy - height / 2) / view.scale,
});

/** Keeps the view's centre on the world (x and y between 0 and 1). */
export function clampView(view, height = 0) {
  return {
    cx: clamp(view.cx, 0, 1),
    cy: clamp(view.cy, 0, 1),
    scale: clampScale(view.scale, height),
  };
}

/** Zooms by `factor` around the screen point (sx, sy), which stays where it is. */
export function zoomAt(view, factor, sx, sy, width, height) {
  const scale = clampScale(view.scale * factor, height);
  const p = fromScreen(view, width, height, sx, sy);
  const cx = p.x - (sx - width / 2) / scale;
  const cy = p.y - (sy - height / 2) / scale;
  return clampView({ cx, cy, scale }, height);
}

export function panBy(view, dx, dy, height = 0) {
  return clampView({ cx: view.cx - dx / view.scale, cy: view.cy - dy / view.scale, scale: view.scale }, height);
}

/** Metres on the ground per CSS px at a latitude (Web Mercator stretches by 1 / cos φ). */
export const metresPerPixel = (scale, latitude) => (40075016.686 * Math.cos((latitude * Math.PI) / 180)) / scale;

/** Great-circle distance in km (haversine, mean Earth radius). */
export function distanceKm(lat1, lon1, lat2, lon2) {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The index of the point (screen [x, y] pairs) nearest to (sx, sy) within `radius` px, or -1. */
export function nearestIndex(screenPoints, sx, sy, radius = 22) {
  let best = -1;
  let bestD = radius * radius;
  screenPoints.forEach(([x, y], i) => {
    const d = (x - sx) ** 2 + (y - sy) ** 2;
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}
