import { test } from 'node:test';
import assert from 'node:assert/strict';
import { characterCount, formatNumber, plural } from '../../Sources/WebApp/Public/js/format.js';

test('numbers are grouped in thousands', () => {
  assert.equal(formatNumber(0), '0');
  assert.equal(formatNumber(12345), '12,345');
});

test('counts read naturally in the singular and the plural', () => {
  assert.equal(plural(1, 'word'), '1 word');
  assert.equal(plural(0, 'word'), '0 words');
  assert.equal(plural(2, 'story', 'stories'), '2 stories');
  assert.equal(plural(12000, 'city', 'cities'), '12,000 cities');
});

test('characters are counted as a person counts them, like the server', () => {
  assert.equal(characterCount('e\u0301'), 1);
  assert.equal(characterCount('👍🏽 ok'), 4);
  assert.equal(characterCount(''), 0);
});
