// Unit tests for Choose Your Destiny's pure logic: `node --test tests/js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  advance,
  stepBack,
  rewindTo,
  progressBody,
  chooseBody,
  backBody,
  rewindBody,
  restartBody,
  trail,
  resumePath,
  localProgress,
  moveOptions,
  placeCopy,
  visitedAfter,
  readLine,
  endingsLine,
  countsLine,
  fold,
  matches,
  filterStories,
  uploadType,
  errorLines,
  errorReport,
} from '../../Sources/WebApp/Public/stories/logic.js';
import { enqueue } from '../../Sources/WebApp/Public/js/sync-logic.js';

// A small story: 1 → 2 | 3; 2 → 4; 3 → 4 | 5; 4 and 5 are endings.
const story = {
  start_chapter_id: '1',
  ending_count: 2,
  chapters: [
    { id: '1', name: 'Start', choices: [{ chapter_id: '2' }, { chapter_id: '3' }] },
    { id: '2', name: 'Left', choices: [{ chapter_id: '4' }] },
    { id: '3', name: '', choices: [{ chapter_id: '4' }, { chapter_id: '5' }] },
    { id: '4', name: 'Home', choices: [] },
    { id: '5', name: 'Lost', choices: [] },
  ],
};
const byId = new Map(story.chapters.map((c) => [c.id, c]));

// ---------- The path ----------

test('choosing adds the next chapter to the path and never changes the old one', () => {
  const path = ['1', '3'];
  assert.deepEqual(advance(path, '5'), ['1', '3', '5']);
  assert.deepEqual(path, ['1', '3']);
});

test('the request body for a choice names the new chapter and the whole walk from the start', () => {
  assert.deepEqual(chooseBody(['1'], '3'), { chapter_id: '3', path: ['1', '3'] });
  assert.deepEqual(chooseBody(['1', '3'], '4'), { chapter_id: '4', path: ['1', '3', '4'] });
});

test('Back goes to the previous chapter, and stays at the start', () => {
  assert.deepEqual(stepBack(['1', '3', '4']), ['1', '3']);
  assert.deepEqual(stepBack(['1']), ['1']);
  assert.deepEqual(backBody(['1', '3', '4']), { chapter_id: '3', path: ['1', '3'] });
  assert.deepEqual(backBody(['1']), { chapter_id: '1', path: ['1'] });
});

test('rewinding cuts the path at the chosen step, keeping that chapter', () => {
  const path = ['1', '3', '4'];
  assert.deepEqual(rewindTo(path, 0), ['1']);
  assert.deepEqual(rewindTo(path, 1), ['1', '3']);
  assert.deepEqual(rewindTo(path, 2), path);
  assert.deepEqual(rewindBody(path, 1), { chapter_id: '3', path: ['1', '3'] });
});

test('rewinding to a step that does not exist leaves the path alone', () => {
  const path = ['1', '3'];
  for (const index of [-1, 2, 1.5, undefined, '1']) assert.deepEqual(rewindTo(path, index), path);
});

test('restart puts the reader at the start with a path of one', () => {
  assert.deepEqual(restartBody('1'), { chapter_id: '1', path: ['1'] });
  assert.deepEqual(progressBody(['1', '2']), { chapter_id: '2', path: ['1', '2'] });
});

test('the trail names each step, marks the current one and falls back to the id for nameless chapters', () => {
  assert.deepEqual(trail(['1', '3', '4'], byId), [
    { id: '1', index: 0, name: 'Start', current: false },
    { id: '3', index: 1, name: 'Chapter 3', current: false },
    { id: '4', index: 2, name: 'Home', current: true },
  ]);
});

test('a walk that revisits a chapter keeps both visits in the trail, each rewindable on its own', () => {
  const path = ['1', '2', '1', '2'];
  assert.deepEqual(
    trail(path, byId).map((s) => s.index),
    [0, 1, 2, 3],
  );
  assert.deepEqual(rewindTo(path, 1), ['1', '2']);
});

// ---------- Resuming ----------

test('resuming takes the saved path when it is a walk along the story’s choices', () => {
  assert.deepEqual(resumePath({ chapter_id: '5', path: ['1', '3', '5'] }, story, byId), ['1', '3', '5']);
  assert.deepEqual(resumePath({ chapter_id: '1', path: ['1'] }, story, byId), ['1']);
});

test('a saved path that no longer fits the story starts again from the first chapter', () => {
  assert.deepEqual(resumePath({ chapter_id: '5', path: ['1', '2', '5'] }, story, byId), ['1'], 'no choice leads from 2 to 5');
  assert.deepEqual(resumePath({ chapter_id: '9', path: ['1', '9'] }, story, byId), ['1'], 'a chapter that is gone');
  assert.deepEqual(resumePath({ chapter_id: '3', path: ['2', '4'] }, story, byId), ['1'], 'not from the start');
  assert.deepEqual(resumePath({ chapter_id: '4', path: ['1', '3'] }, story, byId), ['1'], 'chapter and path disagree');
  assert.deepEqual(resumePath({ chapter_id: '1', path: [] }, story, byId), ['1']);
  assert.deepEqual(resumePath(null, story, byId), ['1']);
});

// ---------- Words ----------

test('counts read naturally in the singular and the plural', () => {
  assert.equal(readLine(['1', '3', '4']), 'You read 3 chapters');
  assert.equal(readLine(['1']), 'You read 1 chapter');
  // Chapters read again count once: "13 chapters" read under a catalogue's "6 chapters".
  assert.equal(readLine(['hall', 'library', 'hall', 'library', 'study']), 'You read 3 chapters in 5 steps');
  const chapters = new Map([
    ['12', { name: 'The Lamp Relit' }],
    ['9', { name: 'Adrift' }],
  ]);
  assert.equal(endingsLine(['12', '9'], 4, chapters), 'Endings found: 2 of 4: The Lamp Relit, Adrift');
  assert.equal(endingsLine(['12', 'gone'], 4, chapters), 'Endings found: 2 of 4', 'a name missing: the count alone');
  assert.equal(endingsLine([], 4), 'Endings found: 0 of 4');
  assert.equal(countsLine({ chapter_count: 15, ending_count: 1 }), '15 chapters · 1 ending');
});

// ---------- Search ----------

const stories = [
  { id: 'a', name: 'The Lamp at Gull Rock', author: 'Trove', description: 'A stormy island', summary: 'A lighthouse.' },
  { id: 'b', name: 'The Library After Closing', author: null, description: null, summary: 'Locked in overnight.' },
  { id: 'c', name: 'Élan Vital', author: 'Zoë Brontë', description: 'Quiet mountains', summary: '' },
];

test('search matches the title, the author and the description, case and accents aside', () => {
  assert.deepEqual(
    filterStories(stories, 'gull').map((s) => s.id),
    ['a'],
  );
  assert.deepEqual(
    filterStories(stories, 'LIBRARY').map((s) => s.id),
    ['b'],
  );
  assert.deepEqual(
    filterStories(stories, 'zoe bronte').map((s) => s.id),
    ['c'],
  );
  assert.deepEqual(
    filterStories(stories, 'elan').map((s) => s.id),
    ['c'],
  );
  assert.deepEqual(
    filterStories(stories, 'stormy').map((s) => s.id),
    ['a'],
  );
  assert.deepEqual(
    filterStories(stories, 'overnight').map((s) => s.id),
    ['b'],
    'the summary counts too',
  );
});

test('every word of the query must match, in any order; an empty query keeps everything', () => {
  assert.deepEqual(
    filterStories(stories, 'rock lamp').map((s) => s.id),
    ['a'],
  );
  assert.deepEqual(filterStories(stories, 'lamp library'), []);
  assert.equal(filterStories(stories, '   ').length, 3);
  assert.equal(matches(stories[1], undefined), true);
  assert.equal(fold('Ça Va'), 'ca va');
});

// ---------- Publishing ----------

test('story files upload as JSON, a zip, Twee text or Twine HTML by their extension, anything else is refused', () => {
  assert.equal(uploadType('story.json'), 'application/json');
  assert.equal(uploadType('STORY.JSON'), 'application/json');
  assert.equal(uploadType('mine.twee'), 'text/plain');
  assert.equal(uploadType('mine.tw'), 'text/plain');
  assert.equal(uploadType('notes.txt'), 'text/plain');
  assert.equal(uploadType('with-pictures.zip'), 'application/zip');
  assert.equal(uploadType('Published Story.HTML'), 'text/html');
  assert.equal(uploadType('cover.png'), null);
  assert.equal(uploadType('json'), null);
  assert.equal(uploadType(undefined), null);
});

test('a refused upload lists every detail the API gave, or its message when it gave none', () => {
  const details = ['Chapter "3" has no text.', 'No ending can be reached from the first chapter.'];
  assert.deepEqual(errorLines({ message: 'The story has problems.', details }), details);
  assert.deepEqual(errorLines({ message: 'Sign in first.', details: [] }), ['Sign in first.']);
  assert.deepEqual(errorLines({ message: 'Oops' }), ['Oops']);
  assert.equal(errorLines(null).length, 1);
});

test('a refused upload prints each problem once', () => {
  const one = 'story.json is not valid JSON at line 1, column 36: an object ({) is never closed';
  assert.deepEqual(
    errorReport({ message: one, details: [one] }),
    { heading: one, items: [] },
    'the API repeats a lone problem as its message',
  );
  assert.deepEqual(errorReport({ message: 'Choose a story file first.', details: [] }), {
    heading: 'Choose a story file first.',
    items: [],
  });
  const details = ['Chapter "1" (One) has no text.', 'The story has no ending.', 'The story has no ending.'];
  assert.deepEqual(errorReport({ message: 'The story has 3 problems.', details }), {
    heading: 'The story has 3 problems:',
    items: ['Chapter "1" (One) has no text.', 'The story has no ending.'],
  });
});

// ---------- Reading offline ----------

const endingsById = new Map(story.chapters.map((c) => [c.id, { ...c, is_ending: c.choices.length === 0 }]));

test('a move made offline keeps the place and counts an ending reached, once', () => {
  const first = localProgress(chooseBody(['1', '3'], '5'), endingsById, ['4']);
  assert.deepEqual(first, { chapter_id: '5', path: ['1', '3', '5'], endings_found: ['4', '5'] });
  assert.deepEqual(localProgress(chooseBody(['1', '3'], '5'), endingsById, ['5']).endings_found, ['5']);
  assert.deepEqual(localProgress(chooseBody(['1'], '3'), endingsById, []).endings_found, []);
  assert.deepEqual(localProgress(chooseBody(['1'], '3'), endingsById, undefined).endings_found, []);
});

// The outbox as js/outbox.js keeps it: sync-logic's `enqueue` with each move's options.
const queueOf = (moves) => moves.reduce((list, [body, ending]) => enqueue(list, { body, ...moveOptions('s', 'S', body, ending) }), []);

test('the outbox keeps every ending reached and only the latest place', () => {
  const queue = queueOf([
    [chooseBody(['1'], '3'), false],
    [chooseBody(['1', '3'], '5'), true],
    [restartBody('1'), false],
    [chooseBody(['1'], '2'), false],
    [chooseBody(['1', '2'], '4'), true],
    [restartBody('1'), false],
  ]);
  assert.deepEqual(
    queue.map((e) => e.body),
    [
      { chapter_id: '5', path: ['1', '3', '5'] },
      { chapter_id: '4', path: ['1', '2', '4'] },
      { chapter_id: '1', path: ['1'] },
    ],
  );
  assert.ok(queue.every((e) => e.scope === 'stories' && e.label === 'Your place in “S”'));
});

test('reaching the same ending twice offline queues it once, as the latest place when it is', () => {
  const queue = queueOf([
    [chooseBody(['1', '3'], '5'), true],
    [restartBody('1'), false],
    [chooseBody(['1', '3'], '5'), true],
  ]);
  assert.deepEqual(
    queue.map((e) => e.body.chapter_id),
    ['1', '5'],
  );
});

test("another story's moves are not replaced", () => {
  const mine = moveOptions('a', 'A', restartBody('1'), false);
  const other = moveOptions('b', 'B', restartBody('1'), false);
  assert.notEqual(mine.replace, other.replace);
});

test("the device's place names its chapter (for the library's card) and the visited chapters add up", () => {
  const place = placeCopy({ chapter_id: '5', path: ['1', '3', '5'], endings_found: ['5'] }, endingsById);
  assert.deepEqual(place, { chapter_id: '5', chapter_name: 'Lost', path: ['1', '3', '5'], endings_found: ['5'], finished: true });
  assert.equal(placeCopy({ chapter_id: '3', path: ['1', '3'] }, endingsById).finished, false);
  assert.deepEqual(visitedAfter(['1', '2', '4'], { path: ['1', '3'], endings_found: ['4', '5'] }).sort(), ['1', '2', '3', '4', '5']);
  assert.deepEqual(visitedAfter(undefined, { path: ['1'], visited: ['9'] }).sort(), ['1', '9'], "the server's visited chapters count too");
  assert.deepEqual(visitedAfter(['1'], null), ['1']);
});
