// Trove's one offline layer (issue 18). Two IndexedDB stores on the device:
//  - copies: the last answer of each read an app keeps (`read`, `keep`, `kept`), for when the server is away;
//  - outbox: writes waiting for the server, sent in order by `flush`, each with the Idempotency-Key it was given
//    when queued, so sending it again after a lost answer never does it twice (docs/ARCHITECTURE.md).
// `send` tries a write at once when nothing of its app waits; otherwise, or when the server cannot be reached, it
// goes to the outbox. A write the server refuses (a 4xx) is dropped and named in a toast. This module is the
// light part every page with the layer loads (the copies, the count, the indicator); the sending is in
// outbox.js, loaded with the first write or when writes wait, with its rules pure in sync-logic.js. Signing out
// or in empties both stores (`forget`, from account.js), so one profile's outbox is never sent as another's.
import { api } from './api.js';

const DB = 'trove-sync';
let opened = null;
let connection = null; // the open connection, once opened (closed as the page is hidden)
function db() {
  return (opened ??= new Promise((resolve, reject) => {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
      open.result.createObjectStore('copies');
    };
    open.onsuccess = () => {
      connection = open.result;
      open.result.onversionchange = () => {
        open.result.close();
        opened = null;
        connection = null;
      };
      resolve(open.result);
    };
    open.onerror = () => {
      opened = null;
      reject(open.error);
    };
  }));
}

// A page being left ends its unfinished transactions and closes its connection. WebKit freezes a page it keeps
// for Back with its transactions open, and every transaction of the next page on the same stores then waits for
// them for ever (WebKit bug 315804: commits are driven by the frozen page, so even commit() does not end them).
// Aborting loses nothing a normal navigation would keep: a page that is unloaded has its unfinished
// transactions aborted anyway. (The outbox's writes are kept before their page moves on; a removal aborted here
// is sent again with its Idempotency-Key, which the server answers as the first time.)
const live = new Set();
globalThis.addEventListener?.('pagehide', () => {
  left = true;
  keepOnTheWay();
  for (const t of live) {
    try {
      t.abort();
    } catch {
      /* already finishing */
    }
  }
  live.clear();
  connection?.close();
  connection = null;
  opened = null;
});

/** Runs `work(stores)` in one transaction; resolves with its result once committed. */
export async function tx(mode, work) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const t = d.transaction(['outbox', 'copies'], mode);
    live.add(t);
    let result;
    const req = (r) =>
      new Promise((ok, no) => {
        r.onsuccess = () => ok(r.result);
        r.onerror = () => no(r.error);
      });
    Promise.resolve(work({ outbox: t.objectStore('outbox'), copies: t.objectStore('copies'), req })).then((r) => {
      result = r;
    }, reject);
    t.oncomplete = () => {
      live.delete(t);
      resolve(result);
    };
    t.onerror = t.onabort = () => {
      live.delete(t);
      reject(t.error);
    };
  });
}

/** The outbox's entries in order (for outbox.js too, with `tx` and `update`). */
export const all = () => tx('readonly', ({ outbox, req }) => req(outbox.getAll())).catch(() => []);

// ---------- Copies ----------

/** Keeps a copy of `data` under `key` (a path, or an app's own name). */
export const keep = (key, data) =>
  tx('readwrite', ({ copies }) => {
    copies.put(data, key);
  }).catch(() => {});
/** Lets go of the copy under `key`. */
export const unkeep = (key) =>
  tx('readwrite', ({ copies }) => {
    copies.delete(key);
  }).catch(() => {});
/** The kept copy under `key`, or undefined. */
export const kept = (key) => tx('readonly', ({ copies, req }) => req(copies.get(key))).catch(() => undefined);

/**
 * A GET through the device's copy: the server's answer (kept for next time), or, when the server cannot be
 * reached or writes of `scope` still wait (the server does not have them yet), the kept copy.
 */
export async function read(path, scope) {
  if (scope && (await waiting(scope))) {
    const copy = await kept(path);
    if (copy !== undefined) return copy;
  }
  try {
    const data = await api('GET', path);
    keep(path, data);
    return data;
  } catch (error) {
    if (error.status) throw error;
    const copy = await kept(path);
    if (copy === undefined) throw error;
    return copy;
  }
}

// ---------- Writes (the outbox, js/outbox.js: loaded with the first write, or when writes wait) ----------

let sender = null; // outbox.js, once loaded
const outbox = () => import('./outbox.js').then((m) => (sender = m));

/** How many writes wait, in all or for one app. */
export async function waiting(scope) {
  const list = await all();
  return scope ? list.filter((e) => e.scope === scope).length : list.length;
}

/** Whether writes of `scope` waited when the outbox was last counted (at once, for a page being left). */
export const waitingNow = (scope) => scopes.has(scope);

/**
 * A write. Sent at once when no write of its app waits and the server answers: resolves { data } (a 4xx is
 * thrown, for the page to show). Otherwise queued with its Idempotency-Key: resolves { queued: true }.
 * `options`: label (what it is, for the toast if refused), scope (the app), replace (last writer wins: a key
 * naming the record), creates (the temporary id this write's answer replaces) and idFrom (where the answer
 * has the real id), leads / group (a write whose refusal takes its group's writes with it), keepalive (the
 * first try outlives the page; made as the page goes, it is kept for the next page too: below), key (an
 * Idempotency-Key given before: a write already sent once, as a page was left),
 * resolves (codes of refusals the app puts right on `trove:sync-dropped`: no toast).
 */
export function send(method, path, body, options = {}) {
  const write = { method, path, body, options: { ...options, key: options.key || crypto.randomUUID() } };
  if (sender && leaving() && options.keepalive && !globalThis.troveStale) return sender.sendAsLeaving(write);
  onTheWay.set(write.options.key, write);
  if (leaving()) keepOnTheWay();
  return outbox().then((m) => m.send(write));
}

// A write on its way (tried at once, or being queued) is neither on the server nor in the outbox, and IndexedDB
// cannot be written as a page goes. So a page going, or hidden (a phone may end it there), keeps its writes on
// their way in localStorage, written at once; the next page (or this one, shown again) queues them with their
// Idempotency-Key (outbox.js `adoptLeft`): one that did arrive is answered as the first time.
const LEFT = 'trove.sync.onTheWay';
export const onTheWay = new Map(); // key → write, until answered or queued
export const keptLeft = new Set(); // the keys of those this page kept in localStorage
let left = false;
export const leaving = () => left || document.visibilityState === 'hidden';

export function readLeft() {
  try {
    const list = JSON.parse(localStorage.getItem(LEFT) || '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}
export function writeLeft(list) {
  try {
    if (list.length) localStorage.setItem(LEFT, JSON.stringify(list));
    else localStorage.removeItem(LEFT);
  } catch {
    /* storage unavailable */
  }
}
export function keepOnTheWay(writes = [...onTheWay.values()]) {
  // A page of the profile before a sign-in or out in another tab: the next page would send them as the new one.
  if (globalThis.troveStale) return;
  const fresh = writes.filter((w) => !keptLeft.has(w.options.key));
  for (const w of fresh) keptLeft.add(w.options.key);
  if (fresh.length) writeLeft([...readLeft(), ...fresh]);
}

/** Sends the waiting writes in order, one at a time, until one has no answer (then later again). */
export const flush = () => outbox().then((m) => m.flush());

/** Loads the sending part ahead of a write that must start at once (a save sent as the page is left). */
export const prepare = () =>
  outbox().then(
    () => {},
    () => {},
  );

/** Empties the device's copies and outbox (signing out, or in as someone else). */
export async function forget() {
  await tx('readwrite', ({ outbox, copies }) => {
    outbox.clear();
    copies.clear();
  }).catch(() => {});
  count = 0;
  scopes = new Set();
  writeLeft([]);
  keptLeft.clear();
  try {
    localStorage.removeItem(HELD);
  } catch {
    /* no storage */
  }
}

// ---------- The indicator ----------

let count = 0;
let scopes = new Set();
/** The indicator's words. */
export const waitingLine = (n) => (!n ? 'All saved' : n === 1 ? '1 change waiting' : `${n} changes waiting`);

// On this device only, not in the outbox, yet waiting: listed in HELD (a class checked in offline, yoga/local.js).
export const HELD = 'trove.sync.held';
const held = () => {
  try {
    return JSON.parse(localStorage.getItem(HELD) || '[]').length;
  } catch {
    return 0;
  }
};

let badge = null;
/** Counts what waits and says it in the header. */
export async function update() {
  const list = await all();
  count = list.length;
  scopes = new Set(list.map((e) => e.scope));
  // The page serves the indicator's empty line in its header (Templates/sync-status.mustache), so filling it
  // in later moves nothing under a finger.
  badge ??= document.getElementById('sync-status');
  if (!badge) return;
  const n = count + held();
  const line = waitingLine(n);
  if (badge.textContent !== line) badge.textContent = line;
  badge.classList.toggle('is-waiting', n > 0);
}

if (typeof document !== 'undefined') {
  // (not in node, where tests/js reads `waitingLine`)
  addEventListener('online', () => {
    if (count) flush();
  });
  // The writes left on their way go into the outbox (its `queue` counts them), then it is sent: as the page
  // opens, and shown again.
  const resume = () =>
    (readLeft().length ? outbox().then((m) => m.adoptLeft()) : Promise.resolve())
      .catch(() => {})
      .then(() => {
        if (count) flush();
      });
  document.addEventListener('visibilitychange', () => (document.visibilityState === 'hidden' ? keepOnTheWay() : resume()));
  addEventListener('pageshow', (e) => {
    if (!e.persisted) return;
    left = false;
    resume();
  });
  update().then(resume);
}
