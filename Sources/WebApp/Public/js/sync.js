// Trove's one offline layer (issue 18). Two IndexedDB stores on the device:
//  - copies: the last answer of each read an app keeps (`read`, `keep`, `kept`), for when the server is away;
//  - outbox: writes waiting for the server, sent in order by `flush`, each with the Idempotency-Key it was given
//    when queued, so sending it again after a lost answer never does it twice (docs/ARCHITECTURE.md).
// `send` tries a write at once when nothing of its app waits; otherwise, or when the server cannot be reached, it
// goes to the outbox. A write the server refuses (a 4xx) is dropped and named in a toast; the rules are in
// sync-logic.js. The indicator in the header says how many changes wait. Signing out or in empties both stores
// (`forget`, from account.js), so one profile's outbox is never sent as another's.
import { toast } from './api.js';
import { outcome, enqueue, replaced, rewrite, dropsWith, idIn, waitingLine, dropMessage, retryDelay } from './sync-logic.js';

const DB = 'trove-sync';
let opened = null;
function db() {
  return (opened ??= new Promise((resolve, reject) => {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
      open.result.createObjectStore('copies');
    };
    open.onsuccess = () => {
      open.result.onversionchange = () => { open.result.close(); opened = null; };
      resolve(open.result);
    };
    open.onerror = () => { opened = null; reject(open.error); };
  }));
}

/** Runs `work(stores)` in one transaction; resolves with its result once committed. */
async function tx(mode, work) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const t = d.transaction(['outbox', 'copies'], mode);
    let result;
    const req = (r) => new Promise((ok, no) => { r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
    Promise.resolve(work({ outbox: t.objectStore('outbox'), copies: t.objectStore('copies'), req })).then((r) => { result = r; }, reject);
    t.oncomplete = () => resolve(result);
    t.onerror = t.onabort = () => reject(t.error);
  });
}

const all = () => tx('readonly', ({ outbox, req }) => req(outbox.getAll())).catch(() => []);

// ---------- Copies ----------

/** Keeps a copy of `data` under `key` (a path, or an app's own name). */
export const keep = (key, data) => tx('readwrite', ({ copies }) => { copies.put(data, key); }).catch(() => {});
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
    const data = await call('GET', path);
    keep(path, data);
    return data;
  } catch (error) {
    if (error.status) throw error;
    const copy = await kept(path);
    if (copy === undefined) throw error;
    return copy;
  }
}

// ---------- Requests ----------

/** fetch with the error envelope read into an Error (status 0: no answer). */
async function call(method, path, body, key) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (key) headers['Idempotency-Key'] = key;
  let response;
  try {
    response = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw failure(0, 'network', 'Trove cannot be reached.');
  }
  const text = await response.text().catch(() => '');
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
  if (response.ok) return data;
  const e = data && data.error;
  const error = failure(response.status, e?.code || `http_${response.status}`, e?.message || `The server answered ${response.status}.`);
  error.details = Array.isArray(e?.details) ? e.details : [];
  error.retryAfter = Number.parseInt(response.headers.get('Retry-After') ?? '', 10);
  return Promise.reject(error);
}

function failure(status, code, message) {
  return Object.assign(new Error(message), { name: 'ApiError', status, code, details: [], retryAfter: NaN });
}

// ---------- The outbox ----------

let count = 0;
let flushing = null;
let timer = 0;
let attempt = 0;

/** How many writes wait, in all or for one app. */
export async function waiting(scope) {
  const list = await all();
  return scope ? list.filter((e) => e.scope === scope).length : list.length;
}

/**
 * A write. Sent at once when no write of its app waits and the server answers: resolves { data } (a 4xx is
 * thrown, for the page to show). Otherwise queued with its Idempotency-Key: resolves { queued: true }.
 * `options`: label (what it is, for the toast if refused), scope (the app), replace (last writer wins: a key
 * naming the record), creates (the temporary id this write's answer replaces) and idFrom (where the answer
 * has the real id), leads / group (a write whose refusal takes its group's writes with it).
 */
export async function send(method, path, body, options = {}) {
  const entry = { method, path, body, key: crypto.randomUUID(), label: options.label, scope: options.scope };
  for (const name of ['replace', 'creates', 'idFrom', 'leads', 'group']) if (options[name]) entry[name] = options[name];
  if (!(await waiting(entry.scope)) && !flushing) {
    try {
      return { data: await call(method, path, body, entry.key) };
    } catch (error) {
      if (outcome(error.status, error.code) === 'drop') throw error;
    }
  }
  await queue(entry);
  schedule(0);
  return { queued: true };
}

async function queue(entry) {
  await tx('readwrite', async ({ outbox, req }) => {
    for (const old of replaced(await req(outbox.getAll()), entry)) outbox.delete(old.seq);
    outbox.add(entry);
  });
  await update();
}

function schedule(delay) {
  clearTimeout(timer);
  timer = setTimeout(() => flush(), delay);
}

/** Sends the waiting writes in order, one at a time, until one has no answer (then later again). */
export function flush() {
  if (flushing) return flushing;
  const run = () => drain().finally(() => { flushing = null; update(); });
  flushing = navigator.locks ? navigator.locks.request('trove-sync', run) : run();
  return flushing;
}

async function drain() {
  const sent = new Set();
  for (;;) {
    const [entry] = await all();
    if (!entry) break;
    try {
      const answer = await call(entry.method, entry.path, entry.body, entry.key);
      await finish(entry, answer);
      sent.add(entry.scope);
      attempt = 0;
    } catch (error) {
      const what = outcome(error.status, error.code);
      if (what === 'wait') {
        schedule(retryDelay(++attempt, error.retryAfter));
        break;
      }
      await drop(entry, error);
      sent.add(entry.scope);
    }
  }
  if (sent.size) dispatchEvent(new CustomEvent('trove:synced', { detail: { scopes: [...sent] } }));
}

/** A write the server took: gone from the outbox; the id it created replaces the temporary one everywhere. */
async function finish(entry, answer) {
  const real = entry.creates && idIn(answer, entry.idFrom);
  await tx('readwrite', async ({ outbox, copies, req }) => {
    outbox.delete(entry.seq);
    if (!real) return;
    const rest = (await req(outbox.getAll())).filter((e) => e.seq !== entry.seq);
    for (const e of rewrite(rest, entry.creates, real)) outbox.put(e);
    const keys = await req(copies.getAllKeys());
    for (const key of keys) {
      const value = await req(copies.get(key));
      const text = JSON.stringify(value);
      if (text && text.includes(entry.creates)) copies.put(JSON.parse(text.split(entry.creates).join(real)), key);
    }
  });
  if (real) {
    if (location.hash.includes(entry.creates)) history.replaceState(history.state, '', location.hash.split(entry.creates).join(real));
    dispatchEvent(new CustomEvent('trove:sync-id', { detail: { temp: entry.creates, id: real, scope: entry.scope } }));
  }
  update();
}

/** A write the server refused: it goes, with what depends on it, and the person is told. */
async function drop(entry, error) {
  const list = await all();
  const also = dropsWith(list, entry);
  await tx('readwrite', ({ outbox }) => { for (const e of [entry, ...also]) outbox.delete(e.seq); });
  toast(dropMessage(entry, error.message, also.length), { timeout: 10000 });
  dispatchEvent(new CustomEvent('trove:sync-dropped', { detail: { entry, error } }));
}

/** Empties the device's copies and outbox (signing out, or in as someone else). */
export async function forget() {
  await tx('readwrite', ({ outbox, copies }) => { outbox.clear(); copies.clear(); }).catch(() => {});
  count = 0;
}

// ---------- The indicator ----------

let badge = null;
async function update() {
  count = await waiting();
  if (!badge) {
    const header = document.querySelector('.site-header');
    if (!header) return;
    badge = document.createElement('p');
    badge.id = 'sync-status';
    badge.className = 'sync-status';
    badge.setAttribute('role', 'status');
    header.querySelector('nav')?.before(badge);
  }
  const line = waitingLine(count);
  if (badge.textContent !== line) badge.textContent = line;
  badge.classList.toggle('is-waiting', count > 0);
}

addEventListener('online', () => schedule(0));
document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible' && count) schedule(0); });
update().then(() => { if (count) schedule(0); });
