// YogiYogini's writes (loaded by yoga/local.js with the first): what the server would answer is worked out on
// the device first (yoga/model.js, its refusals thrown here), applied to the kept model, and sent through the
// outbox (js/sync.js) with an Idempotency-Key. The class's rule (docs/ARCHITECTURE.md):
//  - checked in with the server there, the class is the server's: its changes and end go through the outbox, and
//    an end sent later is followed by a correction (PUT /sessions/{id}) with its true end, since the server dates
//    what it receives;
//  - checked in without the server (or while this app's writes wait), it is held on the device: its changes stay
//    there, a discard sends nothing, and a save sends the whole class as one write, POST /sessions, which never
//    meets a class running on another device;
//  - once the server answers again while it runs, it is handed over (`handOver`: POST /class with its start), and
//    is the server's from then on, seen by other devices; where the server refuses it (another device's class
//    runs, a student deleted there), it stays held here until it ends.
import { api } from '../js/api.js';
import { send, waiting } from '../js/sync.js';
import { tempId } from '../js/sync-logic.js';
import { answer, apply, catchUp, checkInOf, correction, describe, listVenue, recorded } from './model.js';
import { API, KEY, load, change, swap, endingHeld } from './local.js';
import { absorb } from './kept.js';

let handing = null; // a held class being handed over: the class's own writes wait for it
let handAgain = null; // asked for while one ran: that one may have decided "not yet" before what changed since

export async function write(method, path, body, extra = {}) {
  if (handing && path.startsWith('/class')) await handing;
  const m = await load();
  let done;
  try {
    done = apply(m, method, path, body, { newId: tempId });
  } catch (refused) {
    // The device's copy may not know everything (a venue never listed here): the server decides when it can,
    // but not for the class held here, which the server does not know.
    if ((m.class?.on_device && path.startsWith('/class')) || (await waiting(KEY))) throw refused;
    try {
      return await api(method, API + path, body);
    } catch (error) {
      throw error.status ? error : refused;
    }
  }
  if (!done) return api(method, API + path, body); // not kept on the device: needs the server
  const now = Date.parse(done.answer?.class?.started_at ?? done.answer?.session?.ended_at ?? '') || Date.now();
  const again = (cur) => apply(cur, method, path, body, { newId: () => done.creates, now });

  if (path === '/class' && method === 'POST') {
    if (!(await waiting(KEY))) {
      try {
        const data = await api(method, API + path, body);
        await change((cur) => ({ model: listVenue(absorb(cur, path, data), data.class?.venue, body.venue) }));
        return data;
      } catch (error) {
        if (error.status && error.status < 500) throw error;
      }
    }
    await change(again); // held on the device (on_device) until it ends
    return done.answer;
  }

  if (path.startsWith('/class') && m.class?.on_device) {
    if (path !== '/class/end' || !done.answer.session) {
      await change(again);
      return done.answer;
    }
    // Saved: the class is on this device only until its session is in the outbox (or on the server).
    return endingHeld(async () => {
      await change(again);
      const session = { ...done.answer.session };
      const sent = await send('POST', `${API}/sessions`, recorded(done.klass, session), {
        label: 'the class',
        scope: KEY,
        creates: session.id,
        idFrom: 'id',
      });
      if (sent.queued) return done.answer;
      await change((cur) => ({ model: swap(cur, session.id, sent.data.id) }));
      return { session: sent.data };
    });
  }

  const group = m.class ? `class:${m.class.started_at}` : undefined;
  const options = { ...describe(method, path, body), scope: KEY, creates: done.creates, idFrom: done.idFrom, ...extra };
  if (path.startsWith('/class')) options.group = group;
  const sent = await send(method, API + path, body, options);
  if (!sent.queued) {
    const real = done.creates && (path === '/class/end' ? sent.data?.session?.id : sent.data?.id);
    await change((cur) =>
      path === '/class' ? { model: absorb(cur, path, sent.data) } : apply(cur, method, path, body, { newId: () => real }),
    );
    return sent.data;
  }
  await change(again);
  if (done.answer?.session) {
    // The server's class ended here without it: the end it will date later, corrected to when it ended.
    await send('PUT', `${API}/sessions/${done.creates}`, correction(done.answer.session), { label: 'the class’s end', scope: KEY, group });
  }
  return done.answer;
}

/**
 * Hands the class held on this device to the server (class.js asks when it may answer again): the server's class,
 * the held one marked `stays` when the server refuses it, or null while it cannot be reached.
 */
export function handOver() {
  if (handing) return (handAgain ??= handing.then(() => ((handAgain = null), handOver())));
  return (handing = sendHeld()
    .catch(() => null)
    .finally(() => (handing = null)));
}

async function sendHeld() {
  const held = (await load()).class;
  // A student or venue made here waits to be sent first; its id is then the server's.
  if (!held?.on_device || held.stays || JSON.stringify(held).includes('tmp-') || (await waiting(KEY))) return null;
  const body = checkInOf(held);
  let data;
  try {
    data = await api('POST', `${API}/class`, body);
  } catch (error) {
    if (!error.status) return null; // no answer yet
    data = error.code === 'class_in_session' ? await ownRunning(held) : false;
    if (data === null) return null;
    if (data === false) {
      await change((cur) => {
        if (cur.class?.started_at === held.started_at) cur.class.stays = true;
      });
      return answer(await load(), '/class').class; // held here until it ends, and saying so
    }
  }
  await change((cur) => ({ model: listVenue(absorb(cur, '/class', data), data.class?.venue, body.venue) }));
  return data.class;
}

/**
 * A hand-over whose answer was lost reached the server: the class running there is this one (the same start), given
 * what changed here since. False when it is another device's class; null when that cannot be told yet.
 */
async function ownRunning(held) {
  const running = (await api('GET', `${API}/class`).catch(() => null))?.class;
  if (running === undefined) return null;
  // Started in the same second at the same place (a saved venue by its id, which a rename elsewhere keeps; a typed
  // one by its name): this class. A start alone is not enough: a class the laptop checked in within the second of
  // this one's (times are whole seconds) was taken for it, and given its notes.
  const samePlace = held.venue?.id ? running?.venue?.id === held.venue.id : running?.venue?.name === held.venue?.name;
  if (running?.started_at !== held.started_at || !samePlace) return false;
  const missing = catchUp(running, held);
  return missing ? api('PATCH', `${API}/class`, missing).catch(() => null) : { class: running };
}
