// The outbox's rules, pure (node-tested in tests/js/sync.test.mjs); js/outbox.js sends the outbox that js/sync.js keeps.
// An entry: { seq, method, path, body, key (Idempotency-Key), label, scope (the app), replace?, creates?, idFrom?,
// leads?, group?, resolves? }.

/**
 * The writes a page left on their way (kept in localStorage) that go into the outbox now: not one the outbox
 * already holds (the page queued it before it went) nor one this page is still sending; each key once.
 */
export function adoptable(left, outbox, sending = new Set()) {
  const known = new Set([...outbox.map((e) => e.key), ...sending]);
  return left.filter((e) => e && typeof e.key === 'string' && typeof e.path === 'string' && !known.has(e.key) && known.add(e.key));
}

/**
 * What an answer means for a queued write: 'done' (2xx: forget it), 'wait' (no answer, 408, 429, 5xx, or
 * 409 idempotency_key_in_use: keep it, try again later with the same key) or 'drop' (any other 4xx: the
 * server refused it; sending it again cannot help, so it goes and the person is told).
 */
export function outcome(status, code) {
  if (status >= 200 && status < 300) return 'done';
  if (!status || status === 408 || status === 429 || status >= 500) return 'wait';
  if (status === 409 && code === 'idempotency_key_in_use') return 'wait';
  return 'drop';
}

/**
 * Adds an entry at the end. Last writer wins for records that are replaced whole (settings, a star): an
 * entry with `replace` takes the place of every waiting entry with the same `replace` that is not being sent.
 */
export function enqueue(list, entry) {
  const rest = entry.replace ? list.filter((e) => e.replace !== entry.replace || e.sending) : list.slice();
  rest.push(entry);
  return rest;
}

/** The waiting entries whose `replace` an entry would remove (so they can be deleted from the store). */
export function replaced(list, entry) {
  return entry.replace ? list.filter((e) => e.replace === entry.replace && !e.sending) : [];
}

/**
 * An entry that replaces waiting ones (`replaced`) and names the record as it was edited from (its body's `base`,
 * which the server merges against: City Roulette's collection, a venue) takes the base of the first of them: the
 * server still has what that one was edited from, and this one's base already shows the replaced edits as done.
 */
export function keepingBase(entry, olds) {
  const first = olds.find((e) => e.body?.base !== undefined);
  if (!first || entry.body?.base === undefined) return entry;
  return { ...entry, body: { ...entry.body, base: first.body.base } };
}

const mentions = (entry, id) => entry.path.includes(id) || (entry.body !== undefined && JSON.stringify(entry.body).includes(id));

/** The entries after a create that name the id it was given on this device: they wait for its real id. */
export function dependents(list, temp) {
  return list.filter((e) => mentions(e, temp));
}

/** Every later entry with the device's temporary id replaced by the server's. */
export function rewrite(list, temp, real) {
  return list.map((e) =>
    mentions(e, temp)
      ? {
          ...e,
          path: e.path.split(temp).join(real),
          body: e.body === undefined ? undefined : JSON.parse(JSON.stringify(e.body).split(temp).join(real)),
        }
      : e,
  );
}

/**
 * What goes with a dropped entry: the entries of the group it leads (a class checked in on the device: its
 * changes, end and correction belong to that class, not to one running on the server) and those naming the id
 * it would have created. A refused change to a class does not take its end with it: the session is kept.
 */
export function dropsWith(list, entry) {
  return list.filter(
    (e) =>
      e !== entry && e.seq !== entry.seq && ((entry.leads && e.group === entry.leads) || (entry.creates && mentions(e, entry.creates))),
  );
}

/** The server's id in a create's answer: `idFrom` is a dotted path ('id', 'session.id'). */
export function idIn(answer, idFrom = 'id') {
  let value = answer;
  for (const part of idFrom.split('.')) value = value == null ? undefined : value[part];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/**
 * Whether a refused write is one its app puts right itself (`resolves`: the error codes it handles, as Poetry meets
 * a version conflict by saving again over the newer version): then the person is not told it was not saved, unless
 * other writes went with it.
 */
export function resolvedByApp(entry, code, others = 0) {
  return !others && Array.isArray(entry.resolves) && entry.resolves.includes(code);
}

/** The toast for a dropped write: what was not saved, and why. */
export function dropMessage(entry, message, others = 0) {
  const what = entry.label || 'A change';
  const more = others ? ` (and ${others === 1 ? '1 change' : `${others} changes`} that went with it)` : '';
  return `Not saved: ${what}${more}. ${message || 'The server refused it.'}`;
}

/**
 * How long to wait before trying again: Retry-After when given, else 2, 4, 8, then every 10 seconds (a phone
 * coming out of a basement should not wait a minute; one small request every 10 s costs nothing).
 */
export function retryDelay(attempt, retryAfter) {
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter, 300) * 1000;
  return Math.min(10, 2 ** Math.max(1, attempt)) * 1000;
}

/** A temporary id for a record made on this device, until the server gives it its own. */
export const tempId = () => `tmp-${globalThis.crypto.randomUUID()}`;
export const isTemp = (id) => typeof id === 'string' && id.startsWith('tmp-');
