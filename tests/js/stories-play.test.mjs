// Unit tests for the pure logic of interactive stories (played by the server): `node --test tests/js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  isPlayStep,
  playPlace,
  choicesAfter,
  playMove,
  playPlaceCopy,
  playOfflineLine,
} from '../../Sources/WebApp/Public/stories/logic.js';

const step = (trail, extra = {}) => ({
  step: trail.length - 1,
  passage: trail[trail.length - 1],
  paragraphs: [],
  choices: [],
  is_ending: false,
  stopped: false,
  trail,
  endings_found: [],
  ...extra,
});

test('a step of a played story is recognised by its shape', () => {
  assert.equal(isPlayStep(step(['Dock', 'Warehouse'])), true);
  assert.equal(isPlayStep({ ...step(['Dock', 'Warehouse']), step: 2 }), false, 'trail.length must be step + 1');
  assert.equal(isPlayStep({ chapter_id: '1', path: ['1'] }), false);
  assert.equal(isPlayStep(null), false);
});

test('the URL names a passage and its step', () => {
  assert.deepEqual(playPlace(['Dock Again', '3']), { passage: 'Dock Again', step: 3 });
  assert.deepEqual(playPlace(['Dock']), { passage: 'Dock', step: null });
  assert.deepEqual(playPlace(['Dock', '-1']), { passage: 'Dock', step: null });
  assert.deepEqual(playPlace([]), { passage: null, step: null });
});

test('the choices that made a trail: a new choice added, a rewind cuts them, unknown ones are null', () => {
  const a = step(['Dock', 'Warehouse']);
  assert.deepEqual(choicesAfter([], ['Dock'], a, { step: 0, index: 0 }), [0]);
  const b = step(['Dock', 'Warehouse', 'Dock Again']);
  assert.deepEqual(choicesAfter([0], a.trail, b, { step: 1, index: 1 }), [0, 1]);
  assert.deepEqual(choicesAfter([0, 1], b.trail, step(['Dock']), null), [], 'a rewind to the start');
  assert.deepEqual(choicesAfter([0, 1], b.trail, a, null), [0], 'a rewind one step back');
  assert.deepEqual(
    choicesAfter([], ['Dock', 'Pier', 'Warehouse'], step(['Dock', 'Pier', 'Warehouse', 'Dock Again']), { step: 2, index: 0 }),
    [null, null, 0],
  );
  // A choice that jumps elsewhere than one step on (a back link) keeps only what both trails share.
  assert.deepEqual(choicesAfter([0, 1], b.trail, step(['Dock', 'Warehouse']), { step: 2, index: 0 }), [0]);
});

test('Back to an earlier step of the trail rewinds there; a step that is not the trail is refused', () => {
  const now = step(['Dock', 'Warehouse', 'Dock Again']);
  assert.deepEqual(playMove(now, { passage: 'Warehouse', step: 1 }, null), { kind: 'rewind', step: 1 });
  assert.deepEqual(playMove(now, { passage: 'Dock', step: 0 }, null), { kind: 'rewind', step: 0 });
  assert.deepEqual(playMove(now, { passage: 'Pier', step: 1 }, null), { kind: 'here' });
  assert.deepEqual(playMove(now, { passage: 'Dock Again', step: 2 }, null), { kind: 'stay' });
  assert.deepEqual(playMove(now, { passage: 'Dock', step: 2 }, null), { kind: 'here' });
  assert.deepEqual(playMove(now, { passage: 'Warehouse', step: null }, null), { kind: 'rewind', step: 1 });
  assert.deepEqual(playMove(now, { passage: 'Dock Again', step: null }, null), { kind: 'stay' });
  assert.deepEqual(playMove(now, { passage: null, step: 1 }, null), { kind: 'here' });
});

test('Forward takes the choices of the entry again, only from the trail the reader is on', () => {
  const now = step(['Dock', 'Warehouse']);
  const entry = { trail: ['Dock', 'Warehouse', 'Dock Again', 'Crossing'], choices: [0, 1, 0] };
  assert.deepEqual(playMove(now, { passage: 'Crossing', step: 3 }, entry), { kind: 'replay', choices: [1, 0], trail: entry.trail });
  assert.deepEqual(
    playMove(now, { passage: 'Crossing', step: 3 }, { ...entry, choices: [0, null, 0] }),
    { kind: 'here' },
    'a choice not known',
  );
  assert.deepEqual(
    playMove(now, { passage: 'Crossing', step: 3 }, { ...entry, trail: ['Dock', 'Pier', 'Dock Again', 'Crossing'] }),
    { kind: 'here' },
    'another trail',
  );
  assert.deepEqual(playMove(now, { passage: 'Crossing', step: 3 }, null), { kind: 'here' }, 'an entry with nothing kept');
  assert.deepEqual(playMove(now, { passage: 'Adrift', step: 3 }, entry), { kind: 'here' }, 'the URL and the entry disagree');
});

test('the device copy of a played place has the library card shape, finished when the step ends the story', () => {
  const chapters = new Map([['Crossing', { id: 'Crossing', name: 'Crossing', is_ending: false }]]);
  const copy = playPlaceCopy(step(['Dock', 'Crossing'], { is_ending: true, endings_found: ['Crossing'] }), chapters);
  assert.deepEqual(copy, {
    chapter_id: 'Crossing',
    chapter_name: 'Crossing',
    path: ['Dock', 'Crossing'],
    endings_found: ['Crossing'],
    finished: true,
  });
});

test('offline, the reader says the story needs a connection', () => {
  assert.match(playOfflineLine(true), /needs a connection.*last passage/);
  assert.doesNotMatch(playOfflineLine(false), /last passage/);
});
