// YogiYogini through the shared offline layer (js/sync.js): every call of the tabs comes here (store.js `call`).
// Reads: the server's answer, kept in the device's model (yoga/model.js); while the server is away or writes of
// this app wait, the answer comes from the model. Writes: applied to the model and sent through the outbox, each
// with its Idempotency-Key; records made on the device have a temporary id until the server's answer gives theirs.
// A class checked in on the device is sent as its check-in, changes and end, then a correction (PUT
// /sessions/{id}) with its true times, attendees, notes and temperature, since the server dates what it receives.
import { api } from '../js/api.js';
import { send, keep, kept, waiting } from '../js/sync.js';
import { tempId } from '../js/sync-logic.js';
import { absorb } from './kept.js';

const full = () => import('./model.js'); // only for a write or an offline read, so the page loads lighter
// …and kept by the service worker from the first visit (fetched by the worker, not the page), for offline use.
navigator.serviceWorker?.ready.then(({ active }) => active?.postMessage({ type: 'trove:keep', urls: [new URL('./model.js', import.meta.url).pathname] }), () => {});

const API = '/api/v1/yoga';
const KEY = 'yoga';
let model = null;
const load = () => (model ??= kept(KEY).then((m) => m || {}));
/** Changes the model in turn (reads and writes of the tabs overlap), keeping it on the device. */
function change(fn) {
  const next = load().then((m) => {
    try {
      return fn(m)?.model ?? m;
    } catch {
      return m; // the server's answer and the device disagree: the next read settles it
    }
  });
  model = next;
  return next.then((m) => keep(KEY, m));
}
const swap = (value, temp, id) => JSON.parse(JSON.stringify(value).split(temp).join(id));

addEventListener('trove:sync-id', ({ detail }) => { if (model) model = model.then((m) => swap(m, detail.temp, detail.id)); });

export async function yogaCall(method, path, body) {
  if (method === 'GET') return get(path);
  // What the server would answer, worked out on the device first (its refusals are thrown here).
  const { apply, correction, describe, sessionOf } = await full();
  const m = await load();
  let done;
  try {
    done = apply(m, method, path, body, { newId: tempId });
  } catch (refused) {
    // The device's copy may not know everything (a venue never listed here): the server decides when it can.
    if (await waiting(KEY)) throw refused;
    try {
      return await api(method, API + path, body);
    } catch (error) {
      throw error.status ? error : refused;
    }
  }
  if (!done) return api(method, API + path, body); // not kept on the device: needs the server
  const group = m.class ? `class:${m.class.started_at}` : done.model.class ? `class:${done.model.class.started_at}` : undefined;
  const options = { ...describe(method, path, body), scope: KEY, creates: done.creates, idFrom: done.idFrom };
  if (path === '/class' && method === 'POST') options.leads = group;
  else if (path.startsWith('/class')) options.group = group;
  const sent = await send(method, API + path, body, options);
  if (!sent.queued) {
    const real = done.creates && (path === '/class/end' ? sent.data?.session?.id : sent.data?.id);
    await change((cur) => (path === '/class' ? { model: absorb(cur, path, sent.data) } : apply(cur, method, path, body, { newId: () => real })));
    // A class checked in on the device, ended with the server there: its true start.
    if (real && done.klass?.on_device) {
      const session = { ...sessionOf(done.klass, real, Date.parse(sent.data.session.ended_at)), attendees: sent.data.session.attendees };
      await send('PUT', `${API}/sessions/${real}`, correction(session), { label: 'the class’s times', scope: KEY, group });
    }
    return sent.data;
  }
  await change((cur) => apply(cur, method, path, body, { newId: () => done.creates, now: Date.parse(done.answer?.class?.started_at ?? done.answer?.session?.ended_at ?? '') || Date.now() }));
  if (done.answer?.session) {
    await send('PUT', `${API}/sessions/${done.creates}`, correction(done.answer.session), { label: 'the class', scope: KEY, group });
  }
  return done.answer;
}

async function get(path) {
  const m = await load();
  if (!(await waiting(KEY))) {
    try {
      const data = await api('GET', API + path);
      if (path === '/class' && data.class && m.class?.on_device && data.class.venue.name === m.class.venue.name) {
        // Checked in on the device and sent later: the class began when the instructor checked in.
        Object.assign(data.class, { started_at: m.class.started_at, on_device: true,
          elapsed_seconds: Math.max(0, Math.round((Date.now() - Date.parse(m.class.started_at)) / 1000)) });
      }
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
