// Unit tests for YogiYogini's pure functions: `node --test tests/js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  keptFromElsewhere,
  formatClock,
  formatDuration,
  shownDuration,
  timeSpan,
  elapsedAt,
  formatTemperature,
  toFahrenheit,
  formatDistance,
  matches,
  proposeRegulars,
  pickerStudents,
  plural,
} from '../../Sources/WebApp/Public/yoga/logic.js';
import {
  sortStudents,
  filterStudents,
  sortSessions,
  defaultOrder,
  niceMax,
  barLength,
  fillMonths,
  toLocalInput,
  fromLocalInput,
  localDate,
} from '../../Sources/WebApp/Public/yoga/lists.js';

// ---------- Times ----------

test('the timer reads hh:mm:ss and keeps counting hours past a day', () => {
  assert.equal(formatClock(0), '00:00:00');
  assert.equal(formatClock(59.9), '00:00:59');
  assert.equal(formatClock(3723), '01:02:03');
  assert.equal(formatClock(100 * 3600 + 5), '100:00:05');
  assert.equal(formatClock(-4), '00:00:00', 'a clock a little ahead of the server never shows a negative time');
  assert.equal(formatClock(undefined), '00:00:00');
});

test('durations read like a person says them', () => {
  assert.equal(formatDuration(0), 'under a minute');
  assert.equal(formatDuration(59), 'under a minute');
  assert.equal(formatDuration(60), '1 min');
  assert.equal(formatDuration(45 * 60 + 59), '45 min');
  assert.equal(formatDuration(3600), '1 h 00 min');
  assert.equal(formatDuration(3600 + 5 * 60), '1 h 05 min');
  assert.equal(formatDuration(26 * 3600 + 30 * 60), '26 h 30 min');
});

test('the elapsed time counts on from the server’s elapsed_seconds, whatever this device’s clock says', () => {
  const klass = { started_at: '2026-11-22T18:00:00Z', elapsed_seconds: 600 };
  // The device clock is a day off: only the time since the answer arrived matters.
  const received = Date.parse('2026-11-23T18:10:00Z');
  assert.equal(elapsedAt(klass, received, received), 600);
  assert.equal(elapsedAt(klass, received, received + 65_000), 665);
});

test('without elapsed_seconds the time since started_at is used, never negative', () => {
  const klass = { started_at: '2026-11-22T18:00:00Z' };
  assert.equal(elapsedAt(klass, 0, Date.parse('2026-11-22T19:30:00Z')), 5400);
  assert.equal(elapsedAt(klass, 0, Date.parse('2026-11-22T17:59:00Z')), 0);
  assert.equal(elapsedAt(null, 0, 0), 0);
});

// The clock on this device, worked out from its offset to UTC and not from the local getters the code uses:
// '2026-11-22T10:05' for 18:05 UTC in Los Angeles. On a machine set to UTC local and UTC read the same, so
// `make test` runs these tests once more with TZ=America/Los_Angeles (scripts/test.sh), where they differ.
const wallClock = (iso) => new Date(Date.parse(iso) - new Date(iso).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

test('datetime-local values go to UTC and back, in this device’s time zone', () => {
  for (const iso of ['2026-11-22T18:05:00Z', '2026-07-01T02:30:00Z', '2026-01-01T00:00:00Z']) {
    const local = toLocalInput(iso);
    assert.equal(local, wallClock(iso), `${iso} on this device's clock`);
    assert.equal(fromLocalInput(local), iso);
  }
  assert.equal(fromLocalInput(''), null);
  assert.equal(fromLocalInput('yesterday'), null);
  assert.equal(toLocalInput('nonsense'), '');
  // Today's date is the date here, early in the morning and late at night (a UTC date is a day off in one of them
  // wherever the clock is half an hour or more from UTC).
  assert.equal(localDate(new Date(2026, 0, 5, 0, 30)), '2026-01-05');
  assert.equal(localDate(new Date(2026, 0, 5, 23, 30)), '2026-01-05');
});

// ---------- Temperatures and distances ----------

test('temperatures show in the chosen unit with one decimal', () => {
  assert.equal(formatTemperature(18.5, 'celsius'), '18.5 °C');
  assert.equal(formatTemperature(18.5, 'fahrenheit'), '65.3 °F');
  assert.equal(formatTemperature(0, 'fahrenheit'), '32 °F');
  assert.equal(formatTemperature(-40, 'fahrenheit'), '-40 °F');
  assert.equal(formatTemperature(-0.04, 'celsius'), '0 °C', 'no "-0"');
  assert.equal(formatTemperature(21, 'celsius'), '21 °C');
  assert.equal(formatTemperature(null, 'celsius'), null);
  assert.equal(formatTemperature(undefined, 'fahrenheit'), null);
  assert.equal(toFahrenheit(100), 212);
});

test('distances are rounded to 10 m, then km', () => {
  assert.equal(formatDistance(14.2), '10 m');
  assert.equal(formatDistance(324), '320 m');
  assert.equal(formatDistance(1450), '1.4 km');
  assert.equal(formatDistance(12_600), '13 km');
  assert.equal(formatDistance(null), '');
});

// ---------- Roster ----------

const roster = [
  {
    id: 'a',
    name: 'anna Bianchi',
    joined_on: '2025-03-01',
    active: true,
    type_name: 'member',
    notes: '',
    sessions_attended: 9,
    last_seen: '2026-11-20T18:00:00Z',
  },
  {
    id: 'b',
    name: 'Bruno Rossi',
    joined_on: '2024-01-10',
    active: true,
    type_name: null,
    notes: 'knee',
    sessions_attended: 2,
    last_seen: '2026-10-01T18:00:00Z',
  },
  {
    id: 'c',
    name: 'Ćarla Verdi',
    joined_on: '2026-06-15',
    active: false,
    type_name: 'trial',
    notes: '',
    sessions_attended: 0,
    last_seen: null,
  },
  {
    id: 'd',
    name: 'Dario',
    joined_on: '2026-06-15',
    active: true,
    type_name: 'drop-in',
    notes: '',
    sessions_attended: 2,
    last_seen: '2026-11-01T18:00:00Z',
  },
];
const ids = (list) => list.map((s) => s.id);

test('search matches the start of any word, without case or accents', () => {
  assert.ok(matches('Ćarla Verdi', 'carla'));
  assert.ok(matches('Anna Bianchi', 'an bi'));
  assert.ok(!matches('Anna Bianchi', 'bruno'));
  assert.ok(matches('anything', '   '));
  assert.deepEqual(ids(filterStudents(roster, 'CARLA')), ['c']);
  assert.deepEqual(ids(filterStudents(roster, 'knee')), ['b'], 'notes are searched too');
  assert.deepEqual(ids(filterStudents(roster, 'trial')), ['c'], 'and the type');
  assert.deepEqual(ids(filterStudents(roster, '', 'false')), ['c']);
  assert.deepEqual(ids(filterStudents(roster, '', 'true')), ['a', 'b', 'd']);
});

test('the roster sorts by name, date joined, sessions attended and last seen, ties by name', () => {
  assert.deepEqual(ids(sortStudents(roster, 'name', 'asc')), ['a', 'b', 'c', 'd'], 'case and accents do not matter');
  assert.deepEqual(ids(sortStudents(roster, 'name', 'desc')), ['d', 'c', 'b', 'a']);
  assert.deepEqual(ids(sortStudents(roster, 'joined', 'asc')), ['b', 'a', 'c', 'd']);
  assert.deepEqual(ids(sortStudents(roster, 'attended', 'desc')), ['a', 'b', 'd', 'c'], 'equal counts fall back to the name');
  assert.deepEqual(ids(sortStudents(roster, 'last_seen', 'desc')), ['a', 'd', 'b', 'c'], 'never seen comes last when newest come first');
  assert.deepEqual(ids(sortStudents(roster, 'last_seen', 'asc')), ['c', 'b', 'd', 'a']);
  assert.deepEqual(ids(roster), ['a', 'b', 'c', 'd'], 'the list itself is left alone');
});

test('each sort starts in its natural direction', () => {
  assert.equal(defaultOrder('name'), 'asc');
  assert.equal(defaultOrder('venue'), 'asc');
  for (const key of ['joined', 'attended', 'last_seen', 'date', 'attendance', 'duration']) assert.equal(defaultOrder(key), 'desc');
});

const sessions = [
  { id: 1, venue: { name: 'Lotus Studio' }, started_at: '2026-11-01T18:00:00Z', attendance: 4, duration_seconds: 3600 },
  { id: 2, venue: { name: 'community hall' }, started_at: '2026-11-20T18:00:00Z', attendance: 9, duration_seconds: 5400 },
  { id: 3, venue: { name: 'Sunrise Yoga Loft' }, started_at: '2026-10-05T07:00:00Z', attendance: 4, duration_seconds: 2700 },
];

test('sessions sort by date, venue, attendance and duration; ties newest first', () => {
  assert.deepEqual(ids(sortSessions(sessions)), [2, 1, 3], 'newest first by default');
  assert.deepEqual(ids(sortSessions(sessions, 'date', 'asc')), [3, 1, 2]);
  assert.deepEqual(ids(sortSessions(sessions, 'venue', 'asc')), [2, 1, 3]);
  assert.deepEqual(ids(sortSessions(sessions, 'attendance', 'desc')), [2, 1, 3], 'equal attendance: the newer first');
  assert.deepEqual(ids(sortSessions(sessions, 'attendance', 'asc')), [1, 3, 2]);
  assert.deepEqual(ids(sortSessions(sessions, 'duration', 'desc')), [2, 1, 3]);
});

// ---------- Repeat last time and the picker ----------

test('repeat last time ticks who came last time and proposes the other regulars unticked', () => {
  const regulars = [
    { id: 'b', name: 'Bruno Rossi', times: 3 },
    { id: 'a', name: 'Anna Bianchi', times: 7 },
    { id: 'd', name: 'Dario', times: 1 },
  ];
  const last = [
    { id: 'a', name: 'Anna Bianchi' },
    { id: null, name: 'Gone Student' },
    { id: 'e', name: 'Elena' },
  ];
  const active = [...roster.filter((s) => s.active), { id: 'e', name: 'Elena Neri', active: true }];
  assert.deepEqual(proposeRegulars(regulars, last, active), [
    { id: 'a', name: 'Anna Bianchi', times: 7, checked: true },
    { id: 'b', name: 'Bruno Rossi', times: 3, checked: false },
    { id: 'd', name: 'Dario', times: 1, checked: false },
    { id: 'e', name: 'Elena Neri', times: 0, checked: true },
  ]);
});

test('repeat last time leaves out students who are no longer active', () => {
  const regulars = [
    { id: 'c', name: 'Ćarla Verdi', times: 5 },
    { id: 'a', name: 'Anna', times: 1 },
  ];
  const proposal = proposeRegulars(
    regulars,
    [{ id: 'c', name: 'Ćarla Verdi' }],
    roster.filter((s) => s.active),
  );
  assert.deepEqual(ids(proposal), ['a']);
  assert.deepEqual(ids(proposeRegulars(regulars, [])), ['c', 'a'], 'without a roster, every regular is proposed');
});

test('the attendee picker offers active students not yet here, the venue’s regulars first', () => {
  const regulars = [
    { id: 'd', times: 4 },
    { id: 'b', times: 1 },
  ];
  assert.deepEqual(ids(pickerStudents(roster, ['a'], regulars)), ['d', 'b']);
  assert.deepEqual(ids(pickerStudents(roster, [], [])), ['a', 'b', 'd']);
});

// ---------- Charts ----------

test('a chart’s axis ends on a round number at or above the largest value', () => {
  assert.equal(niceMax(0), 1);
  assert.equal(niceMax(1), 1);
  assert.equal(niceMax(3), 5);
  assert.equal(niceMax(7), 10);
  assert.equal(niceMax(10), 10);
  assert.equal(niceMax(11), 20);
  assert.equal(niceMax(42), 50);
  assert.equal(niceMax(180), 200);
  assert.equal(niceMax(501), 1000);
});

test('bars scale to the axis, small values stay visible and zero draws nothing', () => {
  assert.equal(barLength(5, 10, 200), 100);
  assert.equal(barLength(10, 10, 200), 200);
  assert.equal(barLength(30, 10, 200), 200, 'never past the axis');
  assert.equal(barLength(1, 1000, 200), 2);
  assert.equal(barLength(0, 10, 200), 0);
  assert.equal(barLength(3, 0, 200), 0);
});

test('the months chart gets the last twelve months, oldest first, across a new year', () => {
  const months = fillMonths(
    [
      { month: '2026-02', sessions: 3, attendance: 20 },
      { month: '2025-11', sessions: 1, attendance: 4 },
    ],
    '2026-02',
    4,
  );
  assert.deepEqual(months, [
    { month: '2025-11', sessions: 1, attendance: 4 },
    { month: '2025-12', sessions: 0, attendance: 0 },
    { month: '2026-01', sessions: 0, attendance: 0 },
    { month: '2026-02', sessions: 3, attendance: 20 },
  ]);
  assert.equal(fillMonths([], '2026-11').length, 12);
});

test('plural', () => {
  assert.equal(plural(1, 'student'), '1 student');
  assert.equal(plural(0, 'student'), '0 students');
  assert.equal(plural(2, 'class', 'classes'), '2 classes');
});

test('a class within one minute shows that minute once', () => {
  assert.equal(timeSpan('9:00 AM', '10:15 AM'), '9:00 AM–10:15 AM');
  assert.equal(timeSpan('9:59 AM', '9:59 AM'), '9:59 AM');
});

test('a session lasts what its shown times say, whatever their seconds', () => {
  assert.equal(shownDuration('2026-11-20T16:00:40Z', '2026-11-20T17:15:00Z'), '1 h 15 min');
  assert.equal(shownDuration('2026-11-20T16:00:40Z', '2026-11-20T16:03:10Z'), '3 min');
  assert.equal(shownDuration('2026-11-20T16:00:10Z', '2026-11-20T16:00:50Z'), 'under a minute');
});

test('keptFromElsewhere names the fields the server kept from another device, a list compared as a set', () => {
  const names = { notes: 'notes', attendees: 'attendees', temperature_c: 'temperature' };
  const sent = { notes: 'Hips', attendees: ['a', 'b'], temperature_c: null };
  assert.equal(keptFromElsewhere(sent, { notes: 'Hips', attendees: ['b', 'a'] }, names), '');
  assert.equal(
    keptFromElsewhere(sent, { notes: 'Hips\nBlocks', attendees: ['a'], temperature_c: 12 }, names),
    'notes, attendees and temperature',
  );
  assert.equal(keptFromElsewhere(sent, { notes: 'Hips', attendees: ['a', 'b'], temperature_c: 12 }, names), 'temperature');
});
