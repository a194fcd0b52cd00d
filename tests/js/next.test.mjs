import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safeNext, withNext } from '../../Sources/WebApp/Public/js/next.js';

const ORIGIN = 'https://trove.example';

test('a path of this site is where sign-in returns to, with its query and hash', () => {
  assert.equal(safeNext('/stories', ORIGIN), '/stories');
  assert.equal(safeNext('/strategies/12?x=1#card', ORIGIN), '/strategies/12?x=1#card');
  assert.equal(safeNext('/poetry/%2F%2Fevil.example', ORIGIN), '/poetry/%2F%2Fevil.example');
});

test('anything that could leave the site is refused', () => {
  for (const raw of [
    '//evil.example',
    '///evil.example',
    '/.//evil.example',
    '/..//evil.example',
    '/x/..//evil.example',
    '/%2e//evil.example',
    'https://evil.example',
    'http:evil.example',
    'javascript:alert(1)',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    ' /stories',
    'evil.example',
    decodeURIComponent('%2F%2Fevil.example'),
    decodeURIComponent('%2F%5Cevil.example'),
    '',
    null,
    undefined,
  ]) {
    assert.equal(safeNext(raw, ORIGIN), null, JSON.stringify(raw));
  }
});

test('the sign-in pages are not a place to return to', () => {
  assert.equal(safeNext('/login', ORIGIN), null);
  assert.equal(safeNext('/signup?next=/x', ORIGIN), null);
});

test('a sign-in link names the page it was opened from', () => {
  assert.equal(withNext('/login', '/stories#catalog'), '/login?next=%2Fstories%23catalog');
  assert.equal(withNext('/signup', '/login?next=%2Fyoga'), null);
  assert.equal(withNext('/login', '/account'), null);
});
