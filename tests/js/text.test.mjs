// Unit tests for a magnet's spoken form and how typed word lists are split: `node --test tests/js/`.
// How a poem reads as text (rows, suffixes spelled) is in poetry-spelling.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { spoken } from '../../Sources/WebApp/Public/poetry/helpers.js';
import { parseWords } from '../../Sources/WebApp/Public/poetry/wordset-editor.js';

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
