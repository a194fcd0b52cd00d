// Magnetic Poetry: a board kept on the device before the API's keys became snake_case (issue 19) is read with today's keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withAPIKeys } from '../../Sources/WebApp/Public/poetry/board.js';

const MAGNETS = [{ id: 'm1', word: 'moon', x: 0.1, y: 0.2, rotation: 0, z: 1 }];

test('a board kept before the change keeps its word set, size and added words', () => {
  const kept = { wordSetId: 'own-7', font: 'mono', fontScale: 1.4, magnets: MAGNETS, extraWords: ['zephyr'], aspect: 0.75 };
  assert.deepEqual(withAPIKeys(kept), {
    word_set_id: 'own-7',
    font: 'mono',
    font_scale: 1.4,
    magnets: MAGNETS,
    extra_words: ['zephyr'],
    aspect: 0.75,
  });
});

test('a board with the API keys is the same board', () => {
  const board = { word_set_id: 'classics', font: 'serif', font_scale: 1.1, magnets: MAGNETS, extra_words: [] };
  assert.equal(withAPIKeys(board), board);
  assert.equal(withAPIKeys(undefined), undefined);
});
