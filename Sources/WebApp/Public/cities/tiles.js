// City Roulette: the street map, OpenStreetMap's tiles under a map (map.js loads this when "Street map" is turned on).
import { TILE, fromScreen, toScreen } from './geo.js';

/** The OpenStreetMap tiles covering the view: { z, x, y, left, top, size } in screen px. */
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

/** Gives a CityMap its paintTiles(), drawing the tiles it has (fetched once each) under the cities. */
export function tileLayer(map) {
  const images = new Map();
  map.paintTiles = () => {
    for (const t of tilesFor(map.view, map.width, map.height)) {
      const key = `${t.z}/${t.x}/${t.y}`;
      let img = images.get(key);
      if (!img) {
        if (images.size > 300) images.clear();
        img = new Image();
        img.onload = () => map.draw();
        img.src = `https://tile.openstreetmap.org/${key}.png`;
        images.set(key, img);
      }
      if (img.complete && img.naturalWidth) map.ctx.drawImage(img, t.left, t.top, t.size + 0.5, t.size + 0.5);
    }
  };
  map.draw();
}
