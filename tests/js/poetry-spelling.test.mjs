// Magnetic Poetry: a poem as text, the magnets in reading order and suffix magnets joined by English spelling (poetry/spelling.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { joinSuffix, linesOf, poemLines, poemText, readingOrder } from '../../Sources/WebApp/Public/poetry/spelling.js';

const TABLE = [
  ['dance', 'ing', 'dancing'],
  ['run', 'ing', 'running'],
  ['happy', 'ly', 'happily'],
  ['try', 'ed', 'tried'],
  ['walk', 'ing', 'walking'],
  ['sing', 'ing', 'singing'],
  ['rain', 'ing', 'raining'],
  ['dream', 'ing', 'dreaming'],
  ['see', 'ing', 'seeing'],
  ['be', 'ing', 'being'],
  ['die', 'ing', 'dying'],
  ['lie', 'ing', 'lying'],
  ['love', 'ing', 'loving'],
  ['have', 'ing', 'having'],
  ['stop', 'ing', 'stopping'],
  ['quit', 'ing', 'quitting'],
  ['forget', 'ing', 'forgetting'],
  ['whisper', 'ing', 'whispering'],
  ['remember', 'ing', 'remembering'],
  ['fix', 'ing', 'fixing'],
  ['snow', 'ing', 'snowing'],
  ['play', 'ing', 'playing'],
  ['free', 'ing', 'freeing'],
  ['dance', 'ed', 'danced'],
  ['stop', 'ed', 'stopped'],
  ['play', 'ed', 'played'],
  ['whisper', 'ed', 'whispered'],
  ['cry', 'ed', 'cried'],
  ['love', 'ed', 'loved'],
  ['sky', 's', 'skies'],
  ['kiss', 's', 'kisses'],
  ['wish', 's', 'wishes'],
  ['go', 's', 'goes'],
  ['day', 's', 'days'],
  ['dream', 's', 'dreams'],
  ['fox', 's', 'foxes'],
  ['quiet', 'ly', 'quietly'],
  ['slow', 'ly', 'slowly'],
  ['gentle', 'ly', 'gently'],
  ['full', 'ly', 'fully'],
  ['true', 'ly', 'truly'],
  ['basic', 'ly', 'basically'],
  ['big', 'er', 'bigger'],
  ['happy', 'est', 'happiest'],
  ['late', 'est', 'latest'],
  ['soft', 'er', 'softer'],
];

for (const [word, suffix, expected] of TABLE) {
  test(`${word} + -${suffix} → ${expected}`, () => assert.equal(joinSuffix(word, suffix), expected));
}

test('capitals stay as they were', () => {
  assert.equal(joinSuffix('Dance', 'ing'), 'Dancing');
  assert.equal(joinSuffix('Run', 'ing'), 'Running');
});

test('words that are not plain letters are only put together', () => {
  assert.equal(joinSuffix('🌙', 's'), '🌙s');
  assert.equal(joinSuffix("don't", 'ing'), "don'ting");
});

test('a suffix magnet joins the word before it on its row; rows are lines', () => {
  assert.deepEqual(
    poemLines([
      ['I', 'dance', '-ing'],
      ['the', 'sky', '-s', 'run', '-ing'],
    ]),
    ['I dancing', 'the skies running'],
  );
  assert.equal(
    poemText([
      ['happy', '-ly'],
      ['we', 'try', '-ed'],
    ]),
    'happily\nwe tried',
  );
});

test('a suffix first on its row stays as it is; two suffixes join in turn', () => {
  assert.deepEqual(
    poemLines([
      ['-ing', 'moon'],
      ['dream', '-er', '-s'],
    ]),
    ['-ing moon', 'dreamers'],
  );
});

test('an empty poem is no lines', () => {
  assert.deepEqual(poemLines([]), []);
  assert.deepEqual(poemLines([[]]), []);
});

// ---------- readingOrder ----------

test('reading order goes row by row, left to right', () => {
  const magnets = [
    { word: 'moon', x: 200, y: 10 },
    { word: 'the', x: 10, y: 12 },
    { word: 'sings', x: 100, y: 60 },
    { word: 'silver', x: 90, y: 8 },
    { word: 'softly', x: 20, y: 58 },
  ];
  assert.deepEqual(readingOrder(magnets, { magnetHeight: 24 }), [
    ['the', 'silver', 'moon'],
    ['softly', 'sings'],
  ]);
});

test('centres within half a magnet height share a row; further apart they do not', () => {
  const share = readingOrder(
    [
      { word: 'b', x: 50, y: 11.9 },
      { word: 'a', x: 0, y: 0 },
    ],
    { magnetHeight: 24 },
  );
  assert.deepEqual(share, [['a', 'b']]);
  const apart = readingOrder(
    [
      { word: 'b', x: 0, y: 12.5 },
      { word: 'a', x: 50, y: 0 },
    ],
    { magnetHeight: 24 },
  );
  assert.deepEqual(apart, [['a'], ['b']]);
});

test('a slightly wavy line is still one row', () => {
  const magnets = ['I', 'wandered', 'lonely', 'as', 'a', 'cloud'].map((word, i) => ({ word, x: i * 40, y: 100 + (i % 2 ? 5 : -5) }));
  assert.deepEqual(readingOrder(magnets, { magnetHeight: 24 }), [['I', 'wandered', 'lonely', 'as', 'a', 'cloud']]);
});

test('each magnet may carry its own height', () => {
  const magnets = [
    { word: 'second', x: 0, y: 40, height: 20 },
    { word: 'first', x: 0, y: 0, height: 20 },
  ];
  assert.deepEqual(readingOrder(magnets), [['first'], ['second']]);
});

test('fractions of the board work as well as pixels', () => {
  const magnets = [
    { word: 'there', x: 0.5, y: 0.101 },
    { word: 'hello', x: 0.1, y: 0.1 },
    { word: 'friend', x: 0.1, y: 0.2 },
  ];
  assert.deepEqual(readingOrder(magnets, { magnetHeight: 0.05 }), [['hello', 'there'], ['friend']]);
});

test('an empty board reads as nothing, and emoji are words like any other', () => {
  assert.deepEqual(readingOrder([]), []);
  assert.deepEqual(
    readingOrder(
      [
        { word: '🌙', x: 5, y: 0 },
        { word: 'night', x: 1, y: 0 },
      ],
      { magnetHeight: 10 },
    ),
    [['night', '🌙']],
  );
});

test('the lines of magnets as drawn: rows in reading order, suffixes joined', () => {
  const items = [
    { word: '-ing', x: 120, y: 62, h: 24 },
    { word: 'moon', x: 90, y: 10, h: 24 },
    { word: 'dance', x: 20, y: 60, h: 24 },
    { word: 'the', x: 10, y: 12, h: 24 },
  ];
  assert.deepEqual(linesOf(items), ['the moon', 'dancing']);
  assert.deepEqual(linesOf([]), []);
});
