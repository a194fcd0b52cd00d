// Magnetic Poetry: a poem as text, suffix magnets joined by English spelling (poetry/spelling.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { joinSuffix, poemLines, poemText } from '../../Sources/WebApp/Public/poetry/spelling.js';

const TABLE = [
  ['dance', 'ing', 'dancing'], ['run', 'ing', 'running'], ['happy', 'ly', 'happily'], ['try', 'ed', 'tried'],
  ['walk', 'ing', 'walking'], ['sing', 'ing', 'singing'], ['rain', 'ing', 'raining'], ['dream', 'ing', 'dreaming'],
  ['see', 'ing', 'seeing'], ['be', 'ing', 'being'], ['die', 'ing', 'dying'], ['lie', 'ing', 'lying'],
  ['love', 'ing', 'loving'], ['have', 'ing', 'having'], ['stop', 'ing', 'stopping'], ['quit', 'ing', 'quitting'],
  ['forget', 'ing', 'forgetting'], ['whisper', 'ing', 'whispering'], ['remember', 'ing', 'remembering'],
  ['fix', 'ing', 'fixing'], ['snow', 'ing', 'snowing'], ['play', 'ing', 'playing'], ['free', 'ing', 'freeing'],
  ['dance', 'ed', 'danced'], ['stop', 'ed', 'stopped'], ['play', 'ed', 'played'], ['whisper', 'ed', 'whispered'],
  ['cry', 'ed', 'cried'], ['love', 'ed', 'loved'],
  ['sky', 's', 'skies'], ['kiss', 's', 'kisses'], ['wish', 's', 'wishes'], ['go', 's', 'goes'], ['day', 's', 'days'],
  ['dream', 's', 'dreams'], ['fox', 's', 'foxes'],
  ['quiet', 'ly', 'quietly'], ['slow', 'ly', 'slowly'], ['gentle', 'ly', 'gently'], ['full', 'ly', 'fully'],
  ['true', 'ly', 'truly'], ['basic', 'ly', 'basically'],
  ['big', 'er', 'bigger'], ['happy', 'est', 'happiest'], ['late', 'est', 'latest'], ['soft', 'er', 'softer'],
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
  assert.deepEqual(poemLines([['I', 'dance', '-ing'], ['the', 'sky', '-s', 'run', '-ing']]), ['I dancing', 'the skies running']);
  assert.equal(poemText([['happy', '-ly'], ['we', 'try', '-ed']]), 'happily\nwe tried');
});

test('a suffix first on its row stays as it is; two suffixes join in turn', () => {
  assert.deepEqual(poemLines([['-ing', 'moon'], ['dream', '-er', '-s']]), ['-ing moon', 'dreamers']);
});

test('an empty poem is no lines', () => {
  assert.deepEqual(poemLines([]), []);
  assert.deepEqual(poemLines([[]]), []);
});
