// City Roulette: the pure rules of a scene (no DOM), unit-tested in tests/js/cities-logic.test.mjs.

/** Case- and accent-insensitive form of a text: NFD, combining marks removed, lower case. */
export const fold = (text) =>
  String(text ?? '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();

/** Whether `name` contains `query` (part of the name, case- and accent-insensitive). */
export const matches = (name, query) => fold(name).includes(fold(query).trim());

const collator = new Intl.Collator('en', { sensitivity: 'base' });

/** The seed's order: favourites first, then population descending, then name. */
export function compareSeed(a, b) {
  if (a.favourite !== b.favourite) return a.favourite ? -1 : 1;
  const pa = a.population ?? 0;
  const pb = b.population ?? 0;
  if (pa !== pb) return pb - pa;
  return collator.compare(a.name, b.name) || a.geonameid - b.geonameid;
}

/** Favourites first, then the nearest (distance_km), then the seed's order. */
export function compareNearest(a, b) {
  if (a.favourite !== b.favourite) return a.favourite ? -1 : 1;
  return (a.distance_km ?? Infinity) - (b.distance_km ?? Infinity) || compareSeed(a, b);
}

/**
 * The cities of one import or browse scene and what the person did to them.
 * `kind` is 'import' (after Around Me or Surprise Me) or 'browse' (the collection).
 * Rows are { ...city, favourite }; `order` is "my order" (geonameids).
 */
export class SceneState {
  constructor(kind, cities) {
    this.kind = kind;
    this.rows = new Map();
    this.order = [];
    const list = kind === 'browse' ? [...cities].sort((a, b) => (a.position ?? 0) - (b.position ?? 0)) : cities;
    for (const city of list) {
      if (this.rows.has(city.geonameid)) continue;
      this.rows.set(city.geonameid, { ...city, favourite: Boolean(city.favourite) });
      this.order.push(city.geonameid);
    }
    this.changed = false; // ever, in this scene: enables Save for good
    this.dirty = false; // since the last save
    this.imported = false;
    // My cities as this scene found them (or last saved them): Save keeps what another device changed since.
    this.base = kind === 'browse' ? this.payload().cities : null;
  }

  get size() {
    return this.rows.size;
  }

  get(id) {
    return this.rows.get(id);
  }

  /** Import is always enabled; Save once anything has changed, and from then on. */
  get saveEnabled() {
    return this.kind === 'import' || this.changed;
  }

  /** Whether leaving now loses a person's work: a change not saved or imported (untouched results never ask). */
  get unsaved() {
    return this.dirty && (this.kind === 'browse' || this.rows.size > 0);
  }

  /** Everything needed to rebuild this state (history state and session storage keep it). */
  snapshot() {
    const { kind, changed, dirty, imported, order, base } = this;
    return { kind, changed, dirty, imported, base, rows: order.map((id) => this.rows.get(id)) };
  }

  static from(snap) {
    const state = new SceneState(snap.kind, []);
    for (const row of snap.rows) {
      state.rows.set(row.geonameid, row);
      state.order.push(row.geonameid);
    }
    Object.assign(state, { changed: !!snap.changed, dirty: !!snap.dirty, imported: !!snap.imported, base: snap.base ?? null });
    return state;
  }

  touch() {
    this.changed = true;
    this.dirty = true;
    this.imported = false;
  }

  toggleFavourite(id) {
    const row = this.rows.get(id);
    if (!row) return false;
    row.favourite = !row.favourite;
    this.touch();
    return row.favourite;
  }

  remove(id) {
    return this.take([id]).length > 0;
  }

  /** Deletes every row that is not a favourite; returns how many went. */
  removeNonFavourites() {
    return this.take(this.order.filter((id) => !this.rows.get(id).favourite)).length;
  }

  /** Removes the rows `ids`; returns [{ row, at }] (at: place in my order) for `restore` (an Undo). */
  take(ids) {
    const taken = [];
    this.order.forEach((id, at) => {
      if (ids.includes(id)) taken.push({ row: this.rows.get(id), at });
    });
    for (const { row } of taken) this.rows.delete(row.geonameid);
    if (taken.length) {
      this.order = this.order.filter((id) => this.rows.has(id));
      this.touch();
    }
    return taken;
  }

  /** Puts rows from `take` back in their places; returns how many came back. */
  restore(taken) {
    const back = taken.filter(({ row }) => !this.rows.has(row.geonameid)).sort((a, b) => a.at - b.at);
    for (const { row, at } of back) {
      this.rows.set(row.geonameid, row);
      this.order.splice(at, 0, row.geonameid);
    }
    if (back.length) this.touch();
    return back.length;
  }

  /** My order: favourites first (in the order the person gave them), then the others. */
  myOrder() {
    const rows = this.order.map((id) => this.rows.get(id));
    return [...rows.filter((r) => r.favourite), ...rows.filter((r) => !r.favourite)];
  }

  /** Moves a favourite to `index` among the favourites (my order). Returns whether it moved. */
  moveFavouriteTo(id, index) {
    const favourites = this.myOrder()
      .filter((r) => r.favourite)
      .map((r) => r.geonameid);
    const from = favourites.indexOf(id);
    const to = Math.max(0, Math.min(favourites.length - 1, index));
    if (from < 0 || from === to) return false;
    favourites.splice(from, 1);
    favourites.splice(to, 0, id);
    const others = this.order.filter((x) => !this.rows.get(x).favourite);
    this.order = [...favourites, ...others];
    this.touch();
    return true;
  }

  moveFavourite(id, delta) {
    const favourites = this.myOrder()
      .filter((r) => r.favourite)
      .map((r) => r.geonameid);
    const from = favourites.indexOf(id);
    return from >= 0 && this.moveFavouriteTo(id, from + delta);
  }

  /** All rows in an order: 'seed' (largest first), 'near' (nearest first) or 'mine'; favourites first in each. */
  sorted(sort = 'seed') {
    if (sort === 'mine') return this.myOrder();
    return [...this.rows.values()].sort(sort === 'near' ? compareNearest : compareSeed);
  }

  /** The rows to show: sorted, filtered by part of the name and by scope ('all' or 'favourites'). */
  visible({ sort = 'seed', query = '', scope = 'all' } = {}) {
    const rows = this.sorted(sort);
    return rows.filter((r) => (scope !== 'favourites' || r.favourite) && (!query.trim() || matches(r.name, query)));
  }

  /** The body of an import or a save: every row (not only those shown), in my order. */
  payload() {
    const cities = this.myOrder().map((r) => ({ geonameid: r.geonameid, favourite: r.favourite }));
    return this.base ? { cities, base: this.base } : { cities };
  }

  /**
   * After Import or Save. A save the server has (`delivered`) is the base of the next; one kept on the device is not:
   * the next save replaces it in the outbox (js/sync.js), and must still name the collection the server has.
   */
  markSaved(delivered = true) {
    this.dirty = false;
    if (this.kind === 'import') this.imported = true;
    else if (delivered) this.base = this.payload().cities;
  }
}

// A scene is kept under its view in session storage (a reload, or Back from a city's page, finds it).
const SCENE_KEY = 'trove.cities.scene:';

export function storeScene(storage, view, scene) {
  try {
    storage?.setItem(SCENE_KEY + view, JSON.stringify(scene));
  } catch {
    /* full or private: history state keeps it */
  }
}

/** The scene kept for `view`: from the history entry's data first, else from session storage; null if none. */
export function readScene(storage, view, data) {
  if (data?.scene?.view === view) return data.scene;
  try {
    const scene = JSON.parse(storage?.getItem(SCENE_KEY + view) ?? 'null');
    return scene?.view === view ? scene : null;
  } catch {
    return null;
  }
}

export function forgetScene(storage, view) {
  try {
    storage?.removeItem(SCENE_KEY + view);
  } catch {
    /* nothing kept */
  }
}

/** "12 °C" or "54 °F" from degrees Celsius. */
export function formatTemperature(celsius, unit = 'C') {
  if (typeof celsius !== 'number' || !Number.isFinite(celsius)) return '';
  const value = unit === 'F' ? (celsius * 9) / 5 + 32 : celsius;
  return `${Math.round(value) || 0}\u00a0°${unit}`;
}

/** Runs async tasks with at most `limit` in flight; `run(task)` resolves with the task's result. */
export function createQueue(limit = 4) {
  let active = 0;
  const waiting = [];
  const next = () => {
    while (active < limit && waiting.length) {
      const { task, resolve, reject } = waiting.shift();
      active += 1;
      Promise.resolve()
        .then(task)
        .then(resolve, reject)
        .finally(() => {
          active -= 1;
          next();
        });
    }
  };
  return {
    run(task) {
      return new Promise((resolve, reject) => {
        waiting.push({ task, resolve, reject });
        next();
      });
    },
    /** Drops the tasks not started yet (their promises resolve with undefined). */
    clear() {
      for (const w of waiting.splice(0)) w.resolve(undefined);
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiting.length;
    },
  };
}
