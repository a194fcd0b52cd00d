// Unit tests for the shared router (Public/js/router.js): `node --test tests/js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { parseView, viewPath, viewOf, createRouter } from '../../Sources/WebApp/Public/js/router.js';
import { fakeWindow } from './fake-window.mjs';

function recording(win, options = {}) {
  const seen = [];
  const router = createRouter({ win, onView: (view, how, data) => seen.push([view, how, data]), ...options });
  return { router, seen };
}

test('parseView splits a view into its name, arguments and query', () => {
  assert.deepEqual(parseView(''), { name: '', args: [], query: {} });
  assert.deepEqual(parseView('#all'), { name: 'all', args: [], query: {} });
  assert.deepEqual(parseView('card/12'), { name: 'card', args: ['12'], query: {} });
  assert.deepEqual(parseView('all?q=walk%20around'), { name: 'all', args: [], query: { q: 'walk around' } });
  assert.deepEqual(parseView('chapter/a%2Fb'), { name: 'chapter', args: ['a/b'], query: {} });
  assert.deepEqual(parseView('chapter/%E0%A4'), { name: 'chapter', args: ['%E0%A4'], query: {} }, 'a broken escape stays as it is');
});

test('viewPath builds what parseView reads', () => {
  assert.equal(viewPath('card', 12), 'card/12');
  assert.equal(viewPath('all', { q: 'walk around' }), 'all?q=walk+around');
  assert.equal(viewPath('all', { q: '' }), 'all');
  assert.equal(viewPath(''), '');
  assert.equal(viewPath('chapter', 'a/b'), 'chapter/a%2Fb');
  assert.deepEqual(parseView(viewPath('chapter', 'a/b', { from: 'x y' })), { name: 'chapter', args: ['a/b'], query: { from: 'x y' } });
  assert.equal(viewOf('#all'), 'all');
  assert.equal(viewOf(''), '');
});

test('going between views pushes entries, and Back and Forward show them again', () => {
  const win = fakeWindow('https://trove.test/strategies');
  const { router, seen } = recording(win);
  router.start();
  assert.deepEqual(seen, [['', 'start', null]]);
  router.go('all');
  router.go('card/3', { data: { from: 'all' } });
  router.go('history');
  assert.equal(win.entries.length, 4);
  assert.equal(win.location.hash, '#history');
  win.history.back();
  win.history.back();
  assert.equal(router.view, 'all');
  win.history.forward();
  assert.equal(router.view, 'card/3');
  assert.deepEqual(seen.slice(-3), [
    ['card/3', 'pop', { from: 'all' }],
    ['all', 'pop', null],
    ['card/3', 'pop', { from: 'all' }],
  ]);
  assert.equal(seen.length, 7, 'a popstate and its hashchange show the view once');
});

test('going to the first view uses the bare path, and a refinement replaces the entry', () => {
  const win = fakeWindow('https://trove.test/strategies?x=1');
  const { router } = recording(win);
  router.start();
  router.go('all');
  router.go('all?q=walk', { replace: true });
  assert.equal(win.entries.length, 2);
  assert.equal(win.location.hash, '#all?q=walk');
  router.go('');
  assert.equal(win.location.href, 'https://trove.test/strategies?x=1');
  assert.equal(win.entries.length, 3);
});

test('going to the view already shown adds no entry', () => {
  const win = fakeWindow('https://trove.test/strategies');
  const { router, seen } = recording(win);
  router.start();
  router.go('all');
  router.go('all');
  assert.equal(win.entries.length, 2);
  assert.equal(seen.length, 2);
});

test("a deep link opened directly is the app's first entry: nothing is pushed without a person's action", () => {
  const win = fakeWindow('https://trove.test/yoga#session/7');
  const { router, seen } = recording(win, { home: 'class' });
  router.start();
  assert.deepEqual(seen, [['session/7', 'start', null]]);
  assert.equal(win.entries.length, 1);
  assert.equal(router.depth, 0);
  router.back();
  assert.equal(win.left, false, 'the in-app Back stays in the app');
  assert.equal(win.location.hash, '#class', 'it shows the first view in place of the deep link');
  assert.equal(win.entries.length, 1);
});

test('a reload keeps the entries and their depth', () => {
  const win = fakeWindow('https://trove.test/strategies');
  const first = recording(win).router;
  first.start();
  first.go('all');
  first.go('mine');
  win.reload();
  const { router, seen } = recording(win);
  router.start();
  assert.deepEqual(seen, [['mine', 'start', null]]);
  assert.equal(router.depth, 2);
  assert.equal(win.entries.length, 3, 'nothing is inserted on a reload');
  win.history.back();
  assert.equal(router.view, 'all');
});

test('a hash changed by hand shows its view and becomes an entry of the app', () => {
  const win = fakeWindow('https://trove.test/stories');
  const { router, seen } = recording(win);
  router.start();
  win.typeHash('#library');
  assert.deepEqual(seen.at(-1), ['library', 'pop', null]);
  assert.equal(router.depth, 1);
  win.history.back();
  assert.equal(router.view, '');
  win.history.forward();
  assert.equal(router.view, 'library');
});

test('the in-app Back goes to the previous view, or replaces with the first view when there is none', () => {
  const win = fakeWindow('https://trove.test/cities');
  const { router } = recording(win);
  router.start();
  router.go('browse');
  router.back();
  assert.equal(router.view, '');
  assert.equal(win.index, 0);
  router.back();
  assert.equal(win.left, false, 'the in-app Back never leaves the app');
  assert.equal(router.view, '');
});

test('remember keeps data with the current entry', () => {
  const win = fakeWindow('https://trove.test/stories/gull');
  const { router, seen } = recording(win, { home: null });
  router.start();
  router.remember({ path: ['a'] });
  router.go('chapter/b', { data: { path: ['a', 'b'] } });
  win.history.back();
  assert.deepEqual(seen.at(-1), ['', 'pop', { path: ['a'] }]);
});
