// City Roulette: the street map, raster tiles under a map's cities (map.js loads this when the street map
// is on). Only the tiles in view are fetched, each once (no prefetching, as OpenStreetMap's policy asks);
// when none loads (two errors first, or nothing within 8 s), the map is told, and falls back to its own.
import { TILE, fromScreen, toScreen } from './geo.js';

/** The tiles covering the view: { z, x, y, left, top, size } in screen px. */
export function tilesFor(view, width, height) {
  const z = Math.min(19, Math.max(0, Math.round(Math.log2(view.scale / TILE))));
  const n = 2 ** z;
  const size = view.scale / n;
  const tl = fromScreen(view, width, height, 0, 0);
  const br = fromScreen(view, width, height, width, height);
  const tiles = [];
  for (let ty = Math.max(0, Math.floor(tl.y * n)); ty <= Math.min(n - 1, Math.floor(br.y * n)); ty += 1) {
    for (let tx = Math.max(0, Math.floor(tl.x * n)); tx <= Math.min(n - 1, Math.floor(br.x * n)); tx += 1) {
      const [left, top] = toScreen(view, width, height, tx / n, ty / n);
      tiles.push({ z, x: tx, y: ty, left, top, size });
    }
  }
  return tiles;
}

/** Gives a CityMap its paintTiles() and retryTiles(), reporting 'ok' or 'failed' through map.setTiles. */
export function tileLayer(map, template) {
  let images = new Map();
  let loaded = 0;
  let failed = 0;
  let timer = 0;
  const watch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!loaded) map.setTiles('failed');
    }, 8000);
  };
  map.paintTiles = () => {
    for (const t of tilesFor(map.view, map.width, map.height)) {
      const key = `${t.z}/${t.x}/${t.y}`;
      let img = images.get(key);
      if (!img) {
        if (images.size > 300) images.clear();
        img = new Image();
        img.onload = () => {
          loaded += 1;
          clearTimeout(timer);
          map.setTiles('ok');
          map.draw();
        };
        img.onerror = () => {
          failed += 1;
          if (!loaded && failed >= 2) map.setTiles('failed');
        };
        img.src = template.replace('{z}', t.z).replace('{x}', t.x).replace('{y}', t.y);
        images.set(key, img);
      }
      if (img.complete && img.naturalWidth) map.ctx.drawImage(img, t.left, t.top, t.size + 0.5, t.size + 0.5);
    }
  };
  map.retryTiles = () => {
    images = new Map();
    loaded = 0;
    failed = 0;
    map.setTiles('loading');
    watch();
  };
  watch();
  map.draw();
}
