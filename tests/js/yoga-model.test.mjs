// YogiYogini on the device (Public/yoga/model.js): answers from the kept model and writes applied to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  answer,
  apply,
  stats,
  correction,
  describe,
  listVenue,
  recorded,
  checkInOf,
  catchUp,
} from '../../Sources/WebApp/Public/yoga/model.js';
import { absorb } from '../../Sources/WebApp/Public/yoga/kept.js';

const T0 = Date.parse('2026-11-20T18:00:00Z');
let n = 0;
const newId = () => `tmp-${++n}`;
const base = () => ({
  students: [
    {
      id: 's1',
      name: 'Bruno',
      joined_on: '2026-01-01',
      active: true,
      type_id: null,
      type_name: null,
      notes: '',
      sessions_attended: 0,
      last_seen: null,
    },
  ],
  types: [{ id: 't1', name: 'member', student_count: 0 }],
  settings: { temperature_unit: 'celsius', slipping_weeks: 3 },
  venues: [{ id: 'v1', name: 'Loft', address: 'Via Roma', latitude: 43.7, longitude: 11.2, favourite: false, session_count: 0 }],
  class: null,
  sessions: [],
});

test('GET answers come from what was kept; unknown reads are undefined', () => {
  let m = absorb({}, '/students?active=all&sort=name&order=asc', {
    students: [
      { id: 'b', name: 'b' },
      { id: 'a', name: 'A' },
    ],
  });
  m = absorb(m, '/students?active=true&q=x', { students: [] });
  assert.deepEqual(
    answer(m, '/students?active=all').students.map((s) => s.id),
    ['a', 'b'],
  );
  assert.equal(answer(m, '/venues/search?lat=1&lon=2'), undefined);
  assert.equal(answer(m, '/class'), undefined);
  m = absorb(m, '/class', { class: null });
  assert.deepEqual(answer(m, '/class'), { class: null });
});

test('a class checked in, changed and saved on the device becomes a session with its attendees and notes', () => {
  let m = base();
  let r = apply(
    m,
    'POST',
    '/students',
    { name: 'Anna', joined_on: '2026-11-20', active: true, type_id: 't1', notes: '' },
    { newId, now: T0 },
  );
  const anna = r.answer.id;
  assert.match(anna, /^tmp-/);
  assert.equal(r.creates, anna);
  assert.equal(r.answer.type_name, 'member');
  m = r.model;
  r = apply(m, 'POST', '/class', { venue_id: 'v1', attendees: ['s1'] }, { newId, now: T0 });
  m = r.model;
  assert.equal(r.answer.class.venue.name, 'Loft');
  assert.throws(() => apply(m, 'POST', '/class', { venue_id: 'v1' }, { newId }), { code: 'class_in_session' });
  m = apply(m, 'PATCH', '/class', { add: [anna] }, { newId }).model;
  m = apply(m, 'PATCH', '/class', { remove: ['s1'] }, { newId }).model;
  m = apply(m, 'PATCH', '/class', { notes: 'Hips' }, { newId }).model;
  assert.equal(answer(m, '/class', T0 + 65000).class.elapsed_seconds, 65);
  r = apply(m, 'POST', '/class/end', { action: 'save' }, { newId, now: T0 + 3600000 });
  m = r.model;
  const s = r.answer.session;
  assert.equal(r.idFrom, 'session.id');
  assert.deepEqual(s.attendees, [{ id: anna, name: 'Anna' }]);
  assert.equal(s.notes, 'Hips');
  assert.equal(s.duration_seconds, 3600);
  assert.equal(m.class, null);
  assert.deepEqual(answer(m, `/sessions/${s.id}`).notes, 'Hips');
  assert.equal(answer(m, '/sessions').sessions.length, 1);
  assert.equal(m.students.find((x) => x.id === anna).sessions_attended, 1);
  assert.equal(m.venues[0].session_count, 1);
  assert.deepEqual(correction(s), {
    started_at: '2026-11-20T18:00:00Z',
    ended_at: '2026-11-20T19:00:00Z',
    attendees: [anna],
    notes: 'Hips',
    temperature_c: null,
    as_known: { attendees: { [anna]: 'Anna' } },
  });
  assert.throws(() => apply(m, 'PATCH', '/class', { notes: 'x' }, { newId }), { code: 'no_class' });
});

test('a change to the class answers its time counted from its start, never from the last read', () => {
  let m = absorb(base(), '/class', {
    class: { venue: { id: 'v1', name: 'Loft' }, started_at: '2026-11-20T18:00:00Z', elapsed_seconds: 4, attendees: [], notes: '' },
  });
  // Offline 56 s in: the temperature typed, an attendee added, a note: each answer says 56 s, 57 s, not 4 s or 0.
  let r = apply(m, 'PATCH', '/class', { temperature_c: 19 }, { newId, now: T0 + 56000 });
  assert.equal(r.answer.class.elapsed_seconds, 56);
  r = apply(r.model, 'PATCH', '/class', { notes: 'Hips' }, { newId, now: T0 + 57000 });
  assert.equal(r.answer.class.elapsed_seconds, 57);
  // Checked in on the device: 0 at its start, then counted from it.
  r = apply(base(), 'POST', '/class', { venue_id: 'v1' }, { newId, now: T0 });
  assert.equal(r.answer.class.elapsed_seconds, 0);
  r = apply(r.model, 'PATCH', '/class', { notes: 'x' }, { newId, now: T0 + 67000 });
  assert.equal(r.answer.class.elapsed_seconds, 67);
  r = apply(r.model, 'POST', '/class/end', { action: 'save' }, { newId, now: T0 + 67000 });
  assert.equal(r.answer.session.duration_seconds, 67, 'saved: its end minus its start');
});

test('a typed venue and a discarded class', () => {
  let r = apply(base(), 'POST', '/class', { venue: { name: 'Hall', address: '', source: 'typed' } }, { newId, now: T0 });
  assert.equal(r.answer.class.venue.id, null);
  r = apply(r.model, 'POST', '/class/end', { action: 'discard' }, { newId });
  assert.deepEqual(r.answer, { discarded: true });
  assert.equal(r.model.sessions.length, 0);
});

/** A class checked in on the device at a typed venue, with notes and a temperature. */
function heldAtHall() {
  const r = apply(
    base(),
    'POST',
    '/class',
    { venue: { name: 'Hall', address: '', latitude: 43.7, longitude: 11.2, source: 'typed' }, attendees: ['s1'] },
    { newId, now: T0 },
  );
  return apply(r.model, 'PATCH', '/class', { notes: 'Cold floor', temperature_c: 9.5 }, { newId });
}

test('a class held on the device is handed over with its start, and what changed here since catches up', () => {
  const held = heldAtHall().model.class;
  assert.deepEqual(checkInOf(held), {
    started_at: '2026-11-20T18:00:00Z',
    attendees: ['s1'],
    notes: 'Cold floor',
    temperature_c: 9.5,
    venue: { name: 'Hall', address: '', latitude: 43.7, longitude: 11.2, source: 'typed' },
  });
  assert.equal(catchUp(held, held), null);
  const running = { ...held, attendees: [{ id: 's2', name: 'Ana' }], notes: '', temperature_c: null };
  assert.deepEqual(catchUp(running, held), { add: ['s1'], remove: ['s2'], notes: 'Cold floor', temperature_c: 9.5 });
  assert.deepEqual(catchUp({ ...held, notes: 'x' }, held), { add: [], remove: [], notes: 'Cold floor' });
});

test('a class held on the device is recorded in one write: its venue by id, or as typed, with its temperature', () => {
  let r = heldAtHall();
  r = apply(r.model, 'POST', '/class/end', { action: 'save' }, { newId, now: T0 + 3600000 });
  assert.deepEqual(recorded(r.klass, r.answer.session), {
    started_at: '2026-11-20T18:00:00Z',
    ended_at: '2026-11-20T19:00:00Z',
    attendees: ['s1'],
    notes: 'Cold floor',
    temperature_c: 9.5,
    venue: { name: 'Hall', address: '', latitude: 43.7, longitude: 11.2, source: 'typed' },
    as_known: { attendees: { s1: 'Bruno' } },
  });
  r = apply(base(), 'POST', '/class', { venue_id: 'v1' }, { newId, now: T0 });
  r = apply(r.model, 'POST', '/class/end', { action: 'save' }, { newId, now: T0 + 60000 });
  const body = recorded(r.klass, r.answer.session);
  assert.equal(body.venue_id, 'v1');
  assert.equal(body.venue, undefined);
  assert.equal(body.temperature_c, null);
  // A saved venue deleted on another device meanwhile: the server keeps the place as the device knew it.
  assert.deepEqual(body.as_known.venue, { name: 'Loft', address: 'Via Roma', latitude: 43.7, longitude: 11.2 });
});

test('a student with sessions is deleted only when confirmed, as on the server', () => {
  const m = base();
  m.students[0].sessions_attended = 2;
  assert.throws(() => apply(m, 'DELETE', '/students/s1', undefined, { newId }), { code: 'student_has_sessions' });
  assert.equal(apply(m, 'DELETE', '/students/s1?confirm=1', undefined, { newId }).model.students.length, 0);
  assert.throws(() => apply(m, 'PUT', '/students/zz', { name: 'x' }, { newId }), { status: 404 });
});

test('statistics from the kept sessions, as the server computes them', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const m = base();
  m.students.push({ id: 's2', name: 'Anna', joined_on: '2026-01-01', active: true, sessions_attended: 0 });
  m.sessions = [
    {
      id: 'a',
      venue: { id: 'v1', name: 'Loft' },
      started_at: '2026-11-20T18:00:00Z',
      attendees: [
        { id: 's1', name: 'Bruno' },
        { id: null, name: 'Gone' },
      ],
    },
    { id: 'b', venue: { id: null, name: 'Park' }, started_at: '2026-08-01T18:00:00Z', attendees: [{ id: 's1', name: 'Bruno' }] },
  ];
  const figures = stats(m, now);
  assert.deepEqual(
    figures.students.map((s) => [s.name, s.sessions_30d, s.sessions_90d, s.total]),
    [
      ['Bruno', 1, 1, 2],
      ['Anna', 0, 0, 0],
    ],
  );
  assert.equal(figures.students[0].last_seen, '2026-11-20T18:00:00Z');
  assert.deepEqual(figures.venues, [
    { id: 'v1', name: 'Loft', sessions: 1, average_attendance: 2 },
    { id: null, name: 'Park', sessions: 1, average_attendance: 1 },
  ]);
  assert.deepEqual(figures.months, [
    { month: '2026-08', sessions: 1, attendance: 1 },
    { month: '2026-11', sessions: 1, attendance: 2 },
  ]);
  assert.deepEqual(figures.slipping, [{ id: 's2', name: 'Anna', last_seen: null, weeks_absent: null }]);
  assert.equal(figures.slipping_weeks, 3);
  assert.deepEqual(
    answer(m, '/venues/v1/regulars').students.map((s) => [s.id, s.times]),
    [['s1', 1]],
  );
});

test("settings and a venue's star are last writer wins; every write has words for its toast", () => {
  assert.equal(describe('PUT', '/settings', {}).replace, 'yoga:settings');
  assert.equal(describe('PUT', '/venues/v1', { name: 'Loft' }).replace, 'yoga:/venues/v1');
  assert.equal(describe('POST', '/class/end', { action: 'save' }).replace, undefined);
  assert.equal(describe('POST', '/students', { name: 'Anna' }).label, 'the new student Anna');
  assert.deepEqual(describe('PUT', '/students/s1', { name: 'Anna' }).resolves, ['not_found'], 'added again (students.js)');
  assert.equal(describe('POST', '/students', { name: 'Anna' }).resolves, undefined);
});

test('"Repeat last time" offline finds the venue in a past session when the venue list was never kept', () => {
  const m = { ...base(), venues: undefined };
  m.sessions = [
    {
      id: 'x1',
      venue: { id: 'v9', name: 'Lotus', address: '', latitude: 43.77, longitude: 11.25 },
      attendees: [],
      started_at: '2026-11-19T18:00:00Z',
    },
  ];
  const r = apply(m, 'POST', '/class', { venue_id: 'v9', attendees: [] }, { newId, now: T0 });
  assert.deepEqual(r.answer.class.venue, { id: 'v9', name: 'Lotus', address: '', latitude: 43.77, longitude: 11.25 });
  assert.equal(r.answer.class.on_device, true);
  assert.throws(() => apply(m, 'POST', '/class', { venue_id: 'nowhere' }, { newId }), { code: 'venue_not_found' });
});

test('a place the server kept as a venue when it checked a class in is offered at the next check-in offline', () => {
  const place = { name: 'Lotus Studio', address: 'Via Po 12', latitude: 45.07, longitude: 7.69, source: 'osm', external_id: 'node/9' };
  const venue = { id: 'v2', name: 'Lotus Studio', address: 'Via Po 12', latitude: 45.07, longitude: 7.69 };
  const m = listVenue(base(), venue, place, T0);
  assert.deepEqual(
    answer(m, '/venues').venues.map((v) => [v.id, v.name, v.source, v.external_id, v.last_used_at]),
    [
      ['v1', 'Loft', undefined, undefined, undefined],
      ['v2', 'Lotus Studio', 'osm', 'node/9', '2026-11-20T18:00:00Z'],
    ],
  );
  // A saved venue is listed once; a class at no venue, or a device that never read the list, changes nothing.
  assert.equal(listVenue(m, venue, place, T0), m);
  const before = base();
  assert.equal(listVenue(before, null), before);
  const unread = { ...base(), venues: undefined };
  assert.equal(listVenue(unread, venue, place), unread);
});
