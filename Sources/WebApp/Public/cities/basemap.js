// City Roulette: Trove's own basemap (Natural Earth's countries, `trove import basemap`), decoded for the map.
// Offline it comes from the page's own Cache Storage copy, kept at each successful load (not versioned, so
// a new release keeps it); the HTTP cache (ETag, Cache-Control) saves the download on later visits.
import { project } from './geo.js';

const URL = '/api/v1/cities/basemap';
const CACHE = 'cities-basemap';
let loading = null;

/** The file's countries as [{ iso, name, rings: [Float32Array of world x, y], box: [x0, y0, x1, y1] }]. */
export function decodeBasemap(json) {
  if (json?.format !== 'trove-basemap-1' || !Array.isArray(json.countries)) return null;
  const unit = json.unit || 0.01;
  return json.countries.map(({ iso, name, rings }) => {
    const box = [Infinity, Infinity, -Infinity, -Infinity];
    const out = rings.map((ring) => {
      const xy = new Float32Array(ring.length);
      let lon = 0;
      let lat = 0;
      for (let i = 0; i < ring.length; i += 2) {
        lon += ring[i];
        lat += ring[i + 1];
        const p = project(lon * unit, lat * unit);
        xy[i] = p.x;
        xy[i + 1] = p.y;
        box[0] = Math.min(box[0], p.x);
        box[1] = Math.min(box[1], p.y);
        box[2] = Math.max(box[2], p.x);
        box[3] = Math.max(box[3], p.y);
      }
      return xy;
    });
    return { iso, name, rings: out, box };
  });
}

/** The basemap (fetched once per page), or null when none was imported and none is kept. */
export function loadBasemap() {
  loading ??= (async () => {
    const store = await globalThis.caches?.open(CACHE).catch(() => null);
    let response = null;
    try {
      response = await fetch(URL, { credentials: 'same-origin' });
      if (response.ok) await store?.put(URL, response.clone()).catch(() => {});
      else if (response.status === 404) store?.delete(URL);
    } catch {
      /* offline */
    }
    if (!response?.ok) response = (await store?.match(URL)) ?? null;
    return response ? decodeBasemap(await response.json()) : null;
  })().catch(() => null);
  return loading;
}
