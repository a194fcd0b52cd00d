// Unit tests for the Choose Your Destiny hub's pure logic (bylines, authors, views, progress, sources).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  byline,
  authorQuery,
  byAuthor,
  authorsOf,
  authorHeading,
  hubView,
  progressOf,
  progressLines,
  sourcesLine,
  coverMark,
  HOUSE,
} from '../../Sources/WebApp/Public/stories/hub-logic.js';
import { parseView } from '../../Sources/WebApp/Public/js/router.js';

const house = { id: 'gull-rock', name: 'The Lamp at Gull Rock', author: 'Trove', author_account: null, pen_name: null };
const ada = { id: 'fox', name: 'The Fox', author: 'ada', author_account: 'ada', pen_name: 'Lady Lovelace' };
const ada2 = { id: 'owl', name: 'The Owl', author: 'ada', author_account: 'ada', pen_name: 'ADA' };
const bob = { id: 'bee', name: 'Bees', author: 'Bob', author_account: 'Bob', pen_name: null };
// An uploader who wrote "Trove" in their file: the byline is still their account's.
const faker = { id: 'fake', name: 'Fake', author: 'mallory', author_account: 'mallory', pen_name: 'Trove' };
// A GitHub author's story (from `trove stories sync`): no account, the name written in it.
const octo = { id: 'octo', name: 'Octo', author: 'ada', author_account: null, pen_name: null };

test("the byline is the account's name, a pen name beside it only when it differs", () => {
  assert.deepEqual(byline(ada), { name: 'ada', account: 'ada', house: false, penName: 'Lady Lovelace' });
  assert.equal(byline(ada2).penName, null, 'the same name in another case is no pen name');
  assert.deepEqual(byline(house), { name: HOUSE, account: null, house: true, penName: null });
  assert.deepEqual(
    byline(faker),
    { name: 'mallory', account: 'mallory', house: false, penName: 'Trove' },
    'the house name never replaces an account',
  );
});

test('a story no account owns: a GitHub author by the name in it, the house when that is "Trove" or none', () => {
  assert.deepEqual(byline({ author: 'octocat', author_account: null }), { name: 'octocat', account: null, house: false, penName: null });
  assert.equal(byline({ author: 'Trove', author_account: null }).house, true);
  assert.equal(byline({ author: null }).house, true);
  assert.deepEqual(authorQuery({ author: 'octocat', author_account: null }), { author: 'octocat' });
});

test('an author query narrows the catalog to that account, or to the house', () => {
  const all = [house, ada, bob, ada2, faker, octo];
  assert.deepEqual(
    all.filter((s) => byAuthor(s, { account: 'ada' })).map((s) => s.id),
    ['fox', 'owl'],
  );
  assert.deepEqual(
    all.filter((s) => byAuthor(s, { author: 'ada' })).map((s) => s.id),
    ['octo'],
    'a GitHub author is not the account of that name',
  );
  assert.deepEqual(
    all.filter((s) => byAuthor(s, { house: 'true' })).map((s) => s.id),
    ['gull-rock'],
  );
  assert.deepEqual(
    all.filter((s) => byAuthor(s, { author: 'Trove' })).map((s) => s.id),
    [],
    'nobody else is the house',
  );
  assert.equal(all.filter((s) => byAuthor(s, {})).length, 6);
  assert.deepEqual(authorQuery(house), { house: 'true' });
  assert.deepEqual(authorQuery(ada), { account: 'ada' });
  assert.equal(authorHeading(all, { account: 'ada' }), 'Stories by ada');
  assert.equal(authorHeading(all, { house: 'true' }), 'Stories by Trove');
});

test('the authors: the house first, then A to Z, each with their stories', () => {
  const authors = authorsOf([bob, ada, house, ada2, faker]);
  assert.deepEqual(
    authors.map((a) => a.name),
    ['Trove', 'ada', 'Bob', 'mallory'],
  );
  assert.deepEqual(
    authors[1].stories.map((s) => s.id),
    ['fox', 'owl'],
  );
  assert.deepEqual(
    authors.map((a) => a.account),
    [null, 'ada', 'Bob', 'mallory'],
  );
  assert.equal(authorsOf([ada, octo]).length, 2, 'an account and a GitHub author of the same name are two authors');
  assert.deepEqual(authors[0].query, { house: 'true' });
});

test('views: the catalog is the first view, one author is the catalog with a query', () => {
  assert.deepEqual(hubView(parseView('')), { tab: 'catalog', query: {} });
  assert.deepEqual(hubView(parseView('#library')), { tab: 'library', query: {} });
  assert.deepEqual(hubView(parseView('authors')), { tab: 'authors', query: {} });
  assert.deepEqual(hubView(parseView('catalog?author=ada%20b')), { tab: 'catalog', query: { author: 'ada b' } });
  assert.deepEqual(hubView(parseView('catalog?account=ada')), { tab: 'catalog', query: { account: 'ada' } });
  assert.deepEqual(hubView(parseView('catalog?house=true&author=x')), { tab: 'catalog', query: { house: 'true' } });
  assert.deepEqual(hubView(parseView('library?author=ada')), { tab: 'library', query: {} });
  assert.deepEqual(hubView(parseView('nonsense')), { tab: 'catalog', query: {} });
});

test("progress on a library card: the server's, else this device's place; none before the first choice", () => {
  const server = { chapter_id: '7', chapter_name: 'The Fog Bell', steps: 2, endings_found: 1, finished: false };
  assert.deepEqual(progressOf(server, null), { chapterId: '7', chapterName: 'The Fog Bell', steps: 2, endings: 1, finished: false });
  const copy = { chapter_id: '12', chapter_name: 'Morning Harbour', path: ['1', '3', '7', '12'], endings_found: ['12'], finished: true };
  assert.deepEqual(progressOf(null, copy), { chapterId: '12', chapterName: 'Morning Harbour', steps: 3, endings: 1, finished: true });
  assert.equal(
    progressOf({ chapter_id: '3', chapter_name: 'x', steps: 1, endings_found: 0, finished: false }, null).steps,
    1,
    'one choice made is progress',
  );
  assert.equal(progressOf({ chapter_id: '1', chapter_name: 'x', steps: 0, endings_found: 0, finished: false }, null), null);
  assert.equal(progressOf(server, copy).chapterId, '7', "the server's progress wins");
  assert.equal(progressOf(server, copy, true).chapterId, '12', 'the device is newer: moves made offline wait');
  assert.equal(progressOf(server, null, true).chapterId, '7', 'without a copy, the server');
  assert.equal(progressOf({ ...server, endings_found: ['12', '13'] }, null).endings, 2, 'endings found as a list count too');
  assert.equal(progressOf(null, { chapter_id: '1', path: ['1'], endings_found: [] }), null);
  assert.equal(progressOf(undefined, undefined), null);
  assert.deepEqual(progressLines(progressOf(server, null), 4), ['At: The Fog Bell', 'Endings found: 1 of 4']);
  assert.deepEqual(progressLines(progressOf(null, copy), 4), ['Finished at: Morning Harbour', 'Endings found: 1 of 4']);
  assert.deepEqual(progressLines(null, 4), []);
});

test('where the stories come from, counted', () => {
  assert.equal(sourcesLine([house, ada, bob]), '1 house story from Trove · 2 stories published here by accounts');
  assert.equal(sourcesLine([octo]), '1 story from GitHub authors');
  assert.equal(sourcesLine([ada]), '1 story published here by an account');
  assert.equal(
    sourcesLine([
      { ...house, source: 'house' },
      { ...ada, source: 'github' },
      { ...bob, source: 'upload' },
    ]),
    '1 house story from Trove · 1 story published here by an account · 1 story from GitHub authors',
  );
  assert.equal(sourcesLine([]), '');
});

test('a story with no cover is marked by its first word past an article, on a hue of its own', () => {
  assert.equal(coverMark('The Library After Closing').letter, 'L');
  assert.equal(coverMark('the night ferry').letter, 'N');
  assert.equal(coverMark('An Éclair').letter, 'É');
  assert.equal(coverMark('A').letter, 'A', 'an article alone is the word');
  assert.equal(coverMark('  “Quoted” tale').letter, 'Q');
  assert.equal(coverMark('').letter, '?');
  const hues = ['The Library After Closing', 'The Locked Study', 'The Night Ferry'].map((name) => coverMark(name).hue);
  assert.equal(new Set(hues).size, 3, `the house's stories share a hue: ${hues}`);
  assert.ok(hues.every((h) => Number.isInteger(h) && h >= 0 && h < 360));
  assert.equal(coverMark('The Night Ferry').hue, coverMark('The Night Ferry').hue);
});
