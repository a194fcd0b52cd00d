// Unit tests for what City Roulette keeps of a scene (Public/cities/logic.js): its snapshot, the session
// storage and history data it is read back from, when leaving asks, and what an import will do.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { SceneState, forgetScene, readScene, storeScene } from '../../Sources/WebApp/Public/cities/logic.js';
import { outOfRange } from '../../Sources/WebApp/Public/cities/coords.js';
import { describePlan, importPlan } from '../../Sources/WebApp/Public/cities/plan.js';

const city = (geonameid, name, population, extra = {}) => ({ geonameid, name, population, country_code: 'IT', ...extra });
const CITIES = [city(1, 'Florence', 349296), city(2, 'Fiesole', 14000), city(3, 'Scandicci', 50000), city(4, 'Compiobbi', 2200)];

class FakeStorage {
  constructor() {
    this.items = new Map();
  }
  getItem(k) {
    return this.items.has(k) ? this.items.get(k) : null;
  }
  setItem(k, v) {
    this.items.set(k, String(v));
  }
  removeItem(k) {
    this.items.delete(k);
  }
}

test('a snapshot rebuilds the same rows, stars, deletions, order and change flags', () => {
  const state = new SceneState('browse', CITIES);
  state.toggleFavourite(2);
  state.toggleFavourite(4);
  state.moveFavourite(4, -1);
  state.remove(3);
  const again = SceneState.from(JSON.parse(JSON.stringify(state.snapshot())));
  assert.deepEqual(
    again.myOrder().map((r) => [r.name, r.favourite]),
    state.myOrder().map((r) => [r.name, r.favourite]),
  );
  assert.deepEqual(
    again.myOrder().map((r) => r.name),
    ['Compiobbi', 'Fiesole', 'Florence'],
  );
  assert.equal(again.kind, 'browse');
  assert.ok(again.changed && again.dirty && again.saveEnabled && again.unsaved);
});

test('an untouched scene never asks before leaving; a changed one does until it is saved', () => {
  const imported = new SceneState('import', CITIES);
  assert.equal(imported.unsaved, false, 'untouched results leave without a question');
  imported.toggleFavourite(1);
  assert.equal(imported.unsaved, true);
  imported.markSaved();
  assert.equal(imported.unsaved, false);
  const emptied = new SceneState('import', CITIES.slice(0, 1));
  emptied.remove(1);
  assert.equal(emptied.unsaved, false, 'nothing left to lose');
  const mine = new SceneState('browse', CITIES.slice(0, 1));
  mine.remove(1);
  assert.equal(mine.unsaved, true, 'deleting every city of the collection is a change to save');
});

test('a scene is read back from the history entry first, then from session storage, only for its view', () => {
  const storage = new FakeStorage();
  const kept = { view: 'browse', state: new SceneState('browse', CITIES).snapshot(), form: { query: 'fi', scope: 'all', sort: 'seed' } };
  storeScene(storage, 'browse', kept);
  assert.deepEqual(readScene(storage, 'browse', null), kept);
  assert.equal(readScene(storage, 'around/1,2', null), null);
  const newer = { ...kept, form: { query: 'sc', scope: 'all', sort: 'seed' } };
  assert.deepEqual(readScene(storage, 'browse', { scene: newer }), newer, "the entry's own data wins");
  assert.deepEqual(readScene(storage, 'browse', { scene: { ...newer, view: 'other' } }), kept, 'data of another view is ignored');
  forgetScene(storage, 'browse');
  assert.equal(readScene(storage, 'browse', null), null);
  storage.setItem('trove.cities.scene:browse', '{not json');
  assert.equal(readScene(storage, 'browse', null), null, 'a damaged copy is no scene');
  assert.doesNotThrow(() =>
    storeScene(
      {
        setItem() {
          throw new Error('full');
        },
      },
      'browse',
      kept,
    ),
  );
});

test('an import plan counts new and replaced cities and the stars that change', () => {
  const state = new SceneState('import', CITIES);
  state.toggleFavourite(2);
  const stored = new Map([
    [1, true],
    [2, false],
    [4, false],
  ]);
  const plan = importPlan(state, stored);
  assert.deepEqual(plan, {
    added: 1,
    replaced: 3,
    stars: [
      { name: 'Fiesole', favourite: true },
      { name: 'Florence', favourite: false },
    ],
  });
  const text = describePlan(plan);
  assert.match(text, /1 city is new; 3 cities are already in your collection and will be replaced\./);
  assert.match(text, /Florence will lose its star\./);
  assert.match(text, /Fiesole will be starred\./);
  assert.equal(describePlan(importPlan(state, new Map())), '', 'nothing replaced: nothing to confirm');
});

test('two numbers out of range are coordinates out of range, not a place name', () => {
  assert.ok(outOfRange('999, 999'));
  assert.ok(outOfRange('91 10'));
  assert.ok(outOfRange('45, -181'));
  assert.ok(!outOfRange('43.77, 11.25'));
  assert.ok(!outOfRange('Florence'));
  assert.ok(!outOfRange('Route 66'));
});
