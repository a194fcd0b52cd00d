// The outbox's rules (Public/js/sync-logic.js): ordering, last writer wins, temporary ids, what a refusal drops.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  adoptable,
  keepingBase,
  outcome,
  enqueue,
  replaced,
  rewrite,
  dependents,
  dropsWith,
  idIn,
  resolvedByApp,
  dropMessage,
  retryDelay,
  tempId,
  isTemp,
} from '../../Sources/WebApp/Public/js/sync-logic.js';
import { keepOnTheWay, readLeft, waitingLine, writeLeft } from '../../Sources/WebApp/Public/js/sync.js';

const entry = (seq, method, path, body, extra = {}) => ({ seq, method, path, body, key: `k${seq}`, ...extra });

test('answers: 2xx done; no answer, 408, 429, 5xx and a key in use wait; other 4xx drop', () => {
  assert.equal(outcome(200), 'done');
  assert.equal(outcome(201), 'done');
  assert.equal(outcome(204), 'done');
  for (const status of [0, undefined, 408, 429, 500, 502, 503]) assert.equal(outcome(status), 'wait', String(status));
  assert.equal(outcome(409, 'idempotency_key_in_use'), 'wait');
  assert.equal(outcome(409, 'class_in_session'), 'drop');
  assert.equal(outcome(422, 'idempotency_key_reused'), 'drop');
  for (const status of [400, 401, 403, 404, 422]) assert.equal(outcome(status, 'x'), 'drop', String(status));
});

test('writes stay in the order they were made', () => {
  let list = [];
  list = enqueue(list, entry(1, 'POST', '/a', { n: 1 }));
  list = enqueue(list, entry(2, 'PATCH', '/a', { n: 2 }));
  list = enqueue(list, entry(3, 'POST', '/b', { n: 3 }));
  assert.deepEqual(
    list.map((e) => e.seq),
    [1, 2, 3],
  );
});

test('last writer wins for settings and stars: a newer write replaces the waiting one, others keep their place', () => {
  let list = [];
  list = enqueue(list, entry(1, 'PUT', '/settings', { unit: 'c' }, { replace: 'settings' }));
  list = enqueue(list, entry(2, 'PUT', '/cities/1/star', undefined, { replace: 'star:1' }));
  list = enqueue(list, entry(3, 'POST', '/students', { name: 'A' }));
  const newer = entry(4, 'PUT', '/settings', { unit: 'f' }, { replace: 'settings' });
  assert.deepEqual(
    replaced(list, newer).map((e) => e.seq),
    [1],
  );
  list = enqueue(list, newer);
  list = enqueue(list, entry(5, 'DELETE', '/cities/1/star', undefined, { replace: 'star:1' }));
  assert.deepEqual(
    list.map((e) => e.seq),
    [3, 4, 5],
  );
  assert.deepEqual(list.find((e) => e.seq === 4).body, { unit: 'f' });
});

test('a write being sent is not replaced (its answer may already be on its way)', () => {
  const list = [entry(1, 'PUT', '/settings', { unit: 'c' }, { replace: 'settings', sending: true })];
  const next = enqueue(list, entry(2, 'PUT', '/settings', { unit: 'f' }, { replace: 'settings' }));
  assert.deepEqual(
    next.map((e) => e.seq),
    [1, 2],
  );
});

test('writes without a replace key are never merged: two sessions stay two', () => {
  let list = [];
  list = enqueue(list, entry(1, 'POST', '/class/end', { action: 'save' }));
  list = enqueue(list, entry(2, 'POST', '/class/end', { action: 'save' }));
  assert.equal(list.length, 2);
});

test("a temporary id is replaced by the server's in later paths and bodies, the key kept", () => {
  const temp = tempId();
  assert.ok(isTemp(temp));
  const list = [
    entry(2, 'PUT', `/students/${temp}`, { name: 'Anna' }),
    entry(3, 'PATCH', '/class', { add: [temp, 'other'] }),
    entry(4, 'DELETE', '/students/other'),
  ];
  assert.deepEqual(
    dependents(list, temp).map((e) => e.seq),
    [2, 3],
  );
  const next = rewrite(list, temp, 'real-7');
  assert.equal(next[0].path, '/students/real-7');
  assert.deepEqual(next[1].body, { add: ['real-7', 'other'] });
  assert.equal(next[1].key, 'k3');
  assert.equal(next[2], list[2]);
});

test('a refused create takes the writes naming its id with it; a refused check-in its whole class', () => {
  const temp = tempId();
  const create = entry(1, 'POST', '/students', { name: 'A' }, { creates: temp });
  const checkIn = entry(2, 'POST', '/class', {}, { leads: 'class:1' });
  const add = entry(3, 'PATCH', '/class', { add: [temp] }, { group: 'class:1' });
  const end = entry(4, 'POST', '/class/end', { action: 'save' }, { group: 'class:1' });
  const other = entry(5, 'PUT', '/settings', {});
  const list = [create, checkIn, add, end, other];
  assert.deepEqual(
    dropsWith(list, create).map((e) => e.seq),
    [3],
  );
  assert.deepEqual(
    dropsWith(list, checkIn).map((e) => e.seq),
    [3, 4],
  );
  // A refused change to the class does not lose the class: its end stays.
  assert.deepEqual(
    dropsWith(list, add).map((e) => e.seq),
    [],
  );
});

test('the id in an answer, by a dotted path', () => {
  assert.equal(idIn({ id: 'a' }), 'a');
  assert.equal(idIn({ session: { id: 'b' } }, 'session.id'), 'b');
  assert.equal(idIn({ id: 12 }), '12');
  assert.equal(idIn(null, 'session.id'), null);
  assert.equal(idIn({}, 'session.id'), null);
});

test('a refusal the write\'s app resolves itself is not told as "Not saved"; any other refusal is', () => {
  const save = entry(1, 'PUT', '/poems/p1', { version: 3 }, { replace: 'poem:p1', resolves: ['version_conflict'] });
  assert.equal(resolvedByApp(save, 'version_conflict'), true); // Poetry saves again over the newer version
  assert.equal(resolvedByApp(save, 'invalid'), false);
  assert.equal(resolvedByApp(save, 'version_conflict', 1), false, 'writes that went with it are told');
  assert.equal(resolvedByApp(entry(2, 'PUT', '/poems/p1', { version: 3 }), 'version_conflict'), false, 'a write that does not say');
  assert.equal(outcome(409, 'version_conflict'), 'drop', 'it still leaves the outbox: the app sends its own write');
});

test('the indicator and the toast say it in words', () => {
  assert.equal(waitingLine(0), 'All saved');
  assert.equal(waitingLine(1), '1 change waiting');
  assert.equal(waitingLine(3), '3 changes waiting');
  assert.equal(dropMessage({ label: 'the new student Anna' }, 'A name is needed.'), 'Not saved: the new student Anna. A name is needed.');
  assert.match(
    dropMessage({ label: 'the check-in' }, 'A class is already running.', 2),
    /the check-in \(and 2 changes that went with it\)/,
  );
  assert.match(dropMessage({}, ''), /^Not saved: A change\. The server refused it\.$/);
});

test('retrying: Retry-After when given, else a growing wait up to 10 seconds', () => {
  assert.equal(retryDelay(1, 1), 1000);
  assert.equal(retryDelay(1, NaN), 2000);
  assert.equal(retryDelay(3, null), 8000);
  assert.equal(retryDelay(20), 10000);
});

test('a write that replaces waiting ones keeps the base the first of them was edited from', () => {
  const first = { seq: 1, replace: 'yoga:/venues/v1', body: { name: 'Loft', favourite: false, base: { name: 'Loft', favourite: true } } };
  const second = { seq: 2, replace: 'yoga:/venues/v1', body: { name: 'Loft', favourite: true, base: { name: 'Loft', favourite: false } } };
  const next = { seq: 3, replace: 'yoga:/venues/v1', body: { name: 'Loft 2', favourite: true, base: { name: 'Loft', favourite: true } } };
  assert.deepEqual(keepingBase(next, [first, second]).body.base, first.body.base, 'the server still has what the first was made on');
  assert.equal(keepingBase(next, []), next, 'nothing replaced: its own base');
  const plain = { seq: 4, replace: 'yoga:settings', body: { unit: 'celsius' } };
  assert.equal(keepingBase(plain, [{ seq: 1, body: { unit: 'fahrenheit' } }]), plain, 'no base: last writer wins as before');
});

test('writes a page left on their way: each once, not one already queued or still being sent here', () => {
  const del = { method: 'DELETE', path: '/api/v1/poetry/poems/a', key: 'k1', scope: 'poetry', replace: 'poem:a' };
  const put = { method: 'PUT', path: '/api/v1/poetry/poems/b', body: { title: 'B' }, key: 'k2', scope: 'poetry' };
  const star = { method: 'PUT', path: '/api/v1/strategies/favourites/3', key: 'k3', scope: 'strategies' };
  assert.deepEqual(adoptable([del, put, star], []), [del, put, star], 'in the order they were made');
  assert.deepEqual(adoptable([del, put], [{ ...put, seq: 4 }]), [del], 'the page queued one before it went');
  assert.deepEqual(adoptable([del, put, star], [], new Set(['k2'])), [del, star], 'this page is still sending one');
  assert.deepEqual(adoptable([del, del, put], []), [del, put], 'kept twice (two tabs), adopted once');
  assert.deepEqual(adoptable([null, { key: 'x' }, 'text', del], []), [del], 'what is not a write is left alone');
});

test('writes on their way are kept for the next page once each, and never by a page of the profile before', () => {
  const stored = new Map();
  globalThis.localStorage = {
    getItem: (name) => stored.get(name) ?? null,
    setItem: (name, value) => stored.set(name, String(value)),
    removeItem: (name) => stored.delete(name),
  };
  try {
    const removal = { method: 'DELETE', path: '/api/v1/poetry/poems/p1', options: { key: 'k1', scope: 'poetry' } };
    globalThis.troveStale = true; // signed out in another tab: the next page would send it as someone else
    keepOnTheWay([removal]);
    assert.deepEqual(readLeft(), []);
    globalThis.troveStale = false;
    keepOnTheWay([removal]);
    keepOnTheWay([removal]); // hidden, then left: still once
    assert.deepEqual(readLeft(), [removal]);
    writeLeft([]);
    assert.equal(stored.size, 0);
  } finally {
    delete globalThis.localStorage;
    delete globalThis.troveStale;
  }
});
