// The sending half of Trove's offline layer (js/sync.js loads it with the first write, or when writes wait):
// a write is tried at once when nothing of its app waits, else queued in the IndexedDB outbox with the
// Idempotency-Key it was given, and the queue is sent in order by `flush`, the same key on every retry. A write
// the server refuses (a 4xx) is dropped and named in a toast, unless its app resolves that refusal itself
// (`resolves`); the rules are pure in sync-logic.js.
import { toast } from './api.js';
import {
  adoptable,
  outcome,
  replaced,
  keepingBase,
  rewrite,
  dropsWith,
  idIn,
  resolvedByApp,
  dropMessage,
  retryDelay,
} from './sync-logic.js';
import { tx, all, waiting, waitingNow, update, onTheWay, keptLeft, leaving, readLeft, writeLeft, keepOnTheWay } from './sync.js';

/** fetch with the error envelope read into an Error (status 0: no answer). */
async function call(method, path, body, key, keepalive) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (key) headers['Idempotency-Key'] = key;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      keepalive: !!keepalive,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw failure(0, 'network', 'Trove cannot be reached.');
  }
  const text = await response.text().catch(() => '');
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
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

let flushing = null;
let timer = 0;
let attempt = 0;

/** A write (js/sync.js `send`) as the outbox keeps it: what it is, its Idempotency-Key and the options kept. */
function entryOf({ method, path, body, options }) {
  const entry = { method, path, body, key: options.key, label: options.label, scope: options.scope };
  for (const name of ['replace', 'creates', 'idFrom', 'leads', 'group', 'resolves']) if (options[name]) entry[name] = options[name];
  return entry;
}

/** See js/sync.js `send`. */
export async function send(write) {
  const key = write.options.key;
  try {
    const result = await sendOrQueue(entryOf(write), write.options.keepalive);
    arrived(key);
    return result;
  } catch (error) {
    // No answer as the page goes (its transaction ended): it stays kept for the next page.
    if (error?.status || !leaving()) arrived(key);
    else onTheWay.delete(key);
    throw error;
  }
}

async function sendOrQueue(entry, keepalive) {
  // A page of the profile before a sign-in or sign-out in another tab, about to load again (js/shell.js): its write
  // would go to the profile now signed in, or wait for it in the outbox.
  if (globalThis.troveStale)
    throw Object.assign(new Error('You signed in or out in another tab.'), { status: 409, code: 'profile_changed' });
  // A flush with nothing left to send (its retry timer outlived the writes it was for) is over in a moment: a write
  // made meanwhile waits for it, not for the connection, which is there.
  const running = flushing;
  if (running && !(await waiting())) await running.catch(() => {});
  if (!(await waiting(entry.scope)) && !flushing) {
    try {
      return { data: await call(entry.method, entry.path, entry.body, entry.key, keepalive) };
    } catch (error) {
      if (outcome(error.status, error.code) === 'drop') throw error;
    }
  }
  await queue(entry);
  schedule(0);
  return { queued: true };
}

/** Answered or queued: no longer on its way. */
function arrived(key) {
  onTheWay.delete(key);
  if (keptLeft.delete(key)) writeLeft(readLeft().filter((w) => w?.options?.key !== key));
}

/**
 * A write made as the page goes, kept for the next page at once: sent now with keepalive unless writes of its app
 * wait (it would overtake them) or it is larger than keepalive allows. Only an answer lets it go.
 */
export function sendAsLeaving(write) {
  keepOnTheWay([write]);
  const entry = entryOf(write);
  const body = entry.body === undefined ? undefined : JSON.stringify(entry.body);
  if (waitingNow(entry.scope) || (body?.length ?? 0) > 60000) return Promise.resolve({ queued: true });
  onTheWay.set(entry.key, write);
  return call(entry.method, entry.path, entry.body, entry.key, true).then(
    (data) => {
      arrived(entry.key);
      return { data };
    },
    (error) => {
      if (outcome(error.status, error.code) !== 'wait') {
        arrived(entry.key);
        throw error;
      }
      onTheWay.delete(entry.key); // kept: queued by the next page, or by this one shown again
      return { queued: true };
    },
  );
}

/** The writes pages left on their way (js/sync.js) go into the outbox in the order made, then are sent. */
export async function adoptLeft() {
  if (globalThis.troveStale) return;
  const list = readLeft();
  const sending = new Set(onTheWay.keys());
  const entries = adoptable(
    list.map((w) => w?.options && entryOf(w)),
    await all(),
    sending,
  );
  for (const entry of entries) await queue(entry);
  const taken = new Set(list.map((w) => w?.options?.key).filter((key) => !sending.has(key)));
  for (const key of taken) keptLeft.delete(key);
  writeLeft(readLeft().filter((w) => !taken.has(w?.options?.key)));
  if (entries.length) schedule(0);
}

async function queue(entry) {
  await tx('readwrite', async ({ outbox, req }) => {
    const olds = replaced(await req(outbox.getAll()), entry);
    for (const old of olds) outbox.delete(old.seq);
    outbox.add(keepingBase(entry, olds));
  });
  await update();
}

function schedule(delay) {
  clearTimeout(timer);
  timer = setTimeout(() => flush(), delay);
}

/** Sends the waiting writes in order, one at a time, until one has no answer (then later again). */
export function flush() {
  if (globalThis.troveStale) return Promise.resolve();
  if (flushing) return flushing;
  clearTimeout(timer); // this run sends what waits now: a retry set for an earlier failure would find it sent
  const run = () =>
    drain().finally(() => {
      flushing = null;
      update();
    });
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

/** A write the server refused: it goes, with what depends on it, and the person is told (unless its app puts it right). */
async function drop(entry, error) {
  const list = await all();
  const also = dropsWith(list, entry);
  await tx('readwrite', ({ outbox }) => {
    for (const e of [entry, ...also]) outbox.delete(e.seq);
  });
  if (!resolvedByApp(entry, error.code, also.length)) toast(dropMessage(entry, error.message, also.length), { timeout: 10000 });
  dispatchEvent(new CustomEvent('trove:sync-dropped', { detail: { entry, error } }));
}
