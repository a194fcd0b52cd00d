// YogiYogini through the shared offline layer (js/sync.js): every call of the tabs comes here (store.js `call`).
// Reads: the server's answer, kept in the device's model (yoga/model.js); while the server is away or writes of
// this app wait, the answer comes from the model. Writes (yoga/write.js, loaded with the first): applied to the
// model and sent through the outbox, each with its Idempotency-Key; records made on the device have a temporary
// id until the server's answer gives theirs. A class checked in without the server is held on the device until
// it ends, then recorded in one write (POST /sessions), so it never meets a class running on another device.
import { api } from '../js/api.js';
import { HELD as HELD_KEYS, keep, kept, update, waiting } from '../js/sync.js';
import { absorb } from './kept.js';

export const full = () => import('./model.js'); // only for a write or an offline read, so the page loads lighter
const writes = () => import('./write.js');
// …and kept by the service worker from the first visit (fetched by the worker, not the page), for offline use.
navigator.serviceWorker?.ready.then(
  ({ active }) =>
    active?.postMessage({ type: 'trove:keep', urls: ['./model.js', './write.js'].map((path) => new URL(path, import.meta.url).pathname) }),
  () => {},
);

export const API = '/api/v1/yoga';
export const KEY = 'yoga';
let model = null;
// A class held on this device (checked in without the server) is on no server yet: the header's indicator counts it
// as waiting (js/sync.js HELD) until it is handed over or, ended, its session is in the outbox (`endingHeld`).
const HELD = `${KEY}.class`;
let ending = 0;
const held = (m) => {
  const on = !!m?.class?.on_device;
  if (!ending && on !== localStorage.getItem(HELD_KEYS)?.includes(HELD)) {
    localStorage.setItem(HELD_KEYS, JSON.stringify(on ? [HELD] : []));
    update();
  }
  return m;
};
/** Runs `work` (ending the held class, then sending its session) with the class counted as waiting throughout. */
export async function endingHeld(work) {
  ending += 1;
  try {
    return await work();
  } finally {
    ending -= 1;
    held(await load());
  }
}
export const load = () => (model ??= kept(KEY).then((m) => held(m || {})));
/** Changes the model in turn (reads and writes of the tabs overlap), keeping it on the device. */
export function change(fn) {
  const next = load().then((m) => {
    try {
      return held(fn(m)?.model ?? m);
    } catch {
      return m; // the server's answer and the device disagree: the next read settles it
    }
  });
  model = next;
  return next.then((m) => keep(KEY, m));
}
export const swap = (value, temp, id) => JSON.parse(JSON.stringify(value).split(temp).join(id));

addEventListener('trove:sync-id', ({ detail }) => {
  if (model) model = model.then((m) => swap(m, detail.temp, detail.id));
});

/** The class held on this device, handed to the server if it answers now (yoga/write.js); its class, or null. */
export const handOver = () => writes().then((m) => m.handOver());

export async function yogaCall(method, path, body) {
  return method === 'GET' ? get(path) : (await writes()).write(method, path, body);
}

// A removal whose Undo ran out as the page was left (students.js) is sent then with an Idempotency-Key, and kept
// here to be sent again through the outbox, with that key, when the page opens next: offline it is sent then,
// and if the first arrived, the server answers the repeat as it answered the first.
const LEFT = 'yoga.leftWrites';
const left = () => {
  try {
    return JSON.parse(localStorage.getItem(LEFT)) || [];
  } catch {
    return [];
  }
};
export function sendAsLeaving(method, path) {
  if (globalThis.troveStale) return; // the profile changed in another tab (js/shell.js)
  const key = crypto.randomUUID();
  localStorage.setItem(LEFT, JSON.stringify([...left(), { method, path, key }]));
  if (!path.includes('tmp-'))
    fetch(API + path, { method, keepalive: true, credentials: 'same-origin', headers: { 'Idempotency-Key': key } }).catch(() => {});
}
if (left().length) {
  (async () => {
    const { write } = await writes();
    for (const w of left()) {
      await write(w.method, w.path, undefined, { key: w.key }).catch(() => {}); // already gone: nothing to do
      localStorage.setItem(LEFT, JSON.stringify(left().filter((x) => x.key !== w.key)));
    }
  })();
}

async function get(path) {
  if (path.startsWith('/weather?')) return api('GET', API + path); // a point's weather: never kept, whatever waits
  const m = await load();
  if (m.class?.on_device && path.startsWith('/class')) {
    // The class held on this device is this device's class, whatever the server runs meanwhile.
    const { answer, refusal } = await full();
    if (path === '/class') return answer(m, path);
    throw refusal(
      409,
      'class_on_device',
      'This class is kept on this device until it ends, so the weather cannot be looked up for it. You can type the temperature.',
    );
  }
  if (!(await waiting(KEY))) {
    try {
      const data = await api('GET', API + path);
      await change((cur) => ({ model: absorb(cur, path, data) }));
      return data;
    } catch (error) {
      if (error.status) throw error;
    }
  }
  const { answer, refusal } = await full();
  const local = answer(await load(), path);
  if (local === undefined) throw refusal(0, 'network', 'Trove’s server cannot be reached, and this needs it.');
  return local;
}
