// Unit tests for how the poem reads as text and how typed word lists are split: `node --test tests/js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { lineText, spoken } from '../../Sources/WebApp/Public/poetry/helpers.js';
import { parseWords } from '../../Sources/WebApp/Public/poetry/wordset-editor.js';

const at = (word, x, w = 40, h = 20) => ({ word, x, w, h });

test('a row of magnets reads as its words with single spaces', () => {
  assert.equal(lineText([at('the', 0), at('silver', 50), at('moon', 120)]), 'the silver moon');
  assert.equal(lineText(['plain', 'words']), 'plain words');
  assert.equal(lineText([]), '');
});

test('a suffix put against the word before it joins that word', () => {
  assert.equal(lineText([at('walk', 0, 40), at('-ing', 42)]), 'walking', 'a 2 px gap is touching');
  assert.equal(lineText([at('walk', 0, 40), at('-ing', 30)]), 'walking', 'overlapping joins too');
  assert.equal(lineText([at('dream', 0, 50), at('-s', 52), at('-ly', 70)]), 'dreamsly', 'suffixes chain');
});

test('a suffix away from the word before it, or first in its row, stays a word of its own', () => {
  assert.equal(lineText([at('walk', 0, 40), at('-ing', 60)]), 'walk -ing');
  assert.equal(lineText([at('-ing', 0)]), '-ing');
  assert.equal(lineText(['walk', '-ing']), 'walk -ing', 'without positions nothing joins');
  assert.equal(lineText([at('a', 0, 10), at('-', 11)]), 'a -', 'a lone dash is not a suffix');
});

test('the spoken form of a magnet is lower case without surrounding punctuation', () => {
  assert.equal(spoken('Moon'), 'moon');
  assert.equal(spoken('“night,”'), 'night');
  assert.equal(spoken("don't"), "don't");
  assert.equal(spoken('🌙'), '');
  assert.equal(spoken('Éclair!'), 'éclair');
});

test('typed words split on new lines and commas, trimmed, blanks dropped', () => {
  assert.deepEqual(parseWords('spoon, fork\n  kettle 🫖 \n\n,,ladle'), ['spoon', 'fork', 'kettle 🫖', 'ladle']);
  assert.deepEqual(parseWords('   '), []);
  assert.deepEqual(parseWords('one'), ['one']);
});
