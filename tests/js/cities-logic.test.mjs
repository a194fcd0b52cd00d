// Unit tests for City Roulette's scene rules (Public/cities/logic.js): `node --test tests/js/*.test.mjs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  SceneState,
  compareNearest,
  compareSeed,
  createQueue,
  fold,
  formatTemperature,
  matches,
} from '../../Sources/WebApp/Public/cities/logic.js';
import { formatLocalTime } from '../../Sources/WebApp/Public/cities/clock.js';
import { parseCoordinates, placeDetails } from '../../Sources/WebApp/Public/cities/coords.js';

const city = (geonameid, name, population, extra = {}) => ({
  geonameid,
  name,
  population,
  country_code: 'IT',
  latitude: 43.7,
  longitude: 11.2,
  ...extra,
});
const names = (rows) => rows.map((r) => r.name);

const FLORENCE = [
  city(1, 'Fiesole', 14000, { distance_km: 5.1 }),
  city(2, 'Florence', 349296, { distance_km: 0.4 }),
  city(3, 'Scandicci', 50000, { distance_km: 6.2 }),
  city(4, 'Sesto Fiorentino', 49000, { distance_km: 8.7 }),
  city(5, 'Bagno a Ripoli', 25000, { distance_km: 5.9 }),
  city(6, 'Impruneta', 14000, { distance_km: 9.8 }),
];

// ---------- Text ----------

test('fold drops case and accents', () => {
  assert.equal(fold('Sant Julià de Lòria'), 'sant julia de loria');
  assert.equal(fold('ÉCOLE'), 'ecole');
  assert.equal(fold('Reykjavík'), 'reykjavik');
  assert.equal(fold(null), '');
});

test('matches finds part of a name, whatever the case and accents on either side', () => {
  assert.ok(matches('Sant Julià de Lòria', 'julia'));
  assert.ok(matches('Sant Julia de Loria', 'JULIÀ'));
  assert.ok(matches('Reykjavík', 'vik'));
  assert.ok(matches('Florence', ' flo '));
  assert.ok(!matches('Florence', 'firenze'));
});

// ---------- Orders ----------

test('the seed order is favourites first, then population descending, then name', () => {
  const rows = [
    { geonameid: 1, name: 'Bravo', population: 10, favourite: false },
    { geonameid: 2, name: 'Alpha', population: 10, favourite: false },
    { geonameid: 3, name: 'Zulu', population: 5, favourite: true },
    { geonameid: 4, name: 'Mike', population: 900, favourite: false },
    { geonameid: 5, name: 'Echo', population: 50, favourite: true },
  ];
  assert.deepEqual(names(rows.sort(compareSeed)), ['Echo', 'Zulu', 'Mike', 'Alpha', 'Bravo']);
});

test('the nearest order keeps favourites first, then goes by distance', () => {
  const rows = FLORENCE.map((c) => ({ ...c, favourite: c.geonameid === 6 }));
  assert.deepEqual(names(rows.sort(compareNearest)), [
    'Impruneta',
    'Florence',
    'Fiesole',
    'Bagno a Ripoli',
    'Scandicci',
    'Sesto Fiorentino',
  ]);
});

test('a starred city moves to the top of the list', () => {
  const scene = new SceneState('import', FLORENCE);
  assert.equal(scene.visible()[0].name, 'Florence');
  assert.equal(scene.toggleFavourite(6), true);
  assert.deepEqual(names(scene.visible()).slice(0, 2), ['Impruneta', 'Florence']);
  assert.equal(scene.toggleFavourite(6), false);
  assert.equal(scene.visible()[0].name, 'Florence');
});

test("browse starts in the collection's order (position), favourites first in my order", () => {
  const scene = new SceneState('browse', [
    { ...city(1, 'A', 1), favourite: false, position: 2 },
    { ...city(2, 'B', 2), favourite: true, position: 3 },
    { ...city(3, 'C', 3), favourite: false, position: 0 },
    { ...city(4, 'D', 4), favourite: true, position: 1 },
  ]);
  assert.deepEqual(names(scene.visible({ sort: 'mine' })), ['D', 'B', 'C', 'A']);
  assert.deepEqual(names(scene.visible({ sort: 'seed' })), ['D', 'B', 'C', 'A'], 'favourites, then by population');
  assert.equal(scene.saveEnabled, false, 'opening is not a change');
});

test("a browse scene's Save names the collection it was opened on, and after a save, what it saved", () => {
  const scene = new SceneState('browse', [
    { ...city(1, 'A', 1), favourite: false, position: 0 },
    { ...city(2, 'B', 2), favourite: true, position: 1 },
  ]);
  const opened = [
    { geonameid: 2, favourite: true },
    { geonameid: 1, favourite: false },
  ];
  scene.toggleFavourite(1);
  scene.remove(2);
  assert.deepEqual(scene.payload(), { cities: [{ geonameid: 1, favourite: true }], base: opened });
  assert.deepEqual(SceneState.from(JSON.parse(JSON.stringify(scene.snapshot()))).payload(), scene.payload(), 'a reload keeps it');
  scene.markSaved(false);
  assert.deepEqual(scene.payload().base, opened, 'a save kept on the device is replaced by the next, which keeps its base');
  scene.markSaved();
  assert.deepEqual(scene.payload().base, [{ geonameid: 1, favourite: true }]);
  assert.deepEqual(Object.keys(new SceneState('import', FLORENCE).payload()), ['cities'], 'an import has none');
});

// ---------- Filtering ----------

test('the filter keeps part-of-name matches; the Favourites scope keeps only favourites', () => {
  const scene = new SceneState('import', [...FLORENCE, city(7, 'Sant Julià de Lòria', 9000)]);
  assert.deepEqual(names(scene.visible({ query: 'julia' })), ['Sant Julià de Lòria']);
  assert.deepEqual(names(scene.visible({ query: 'FI' })), ['Sesto Fiorentino', 'Fiesole']);
  assert.deepEqual(scene.visible({ scope: 'favourites' }), []);
  scene.toggleFavourite(1);
  assert.deepEqual(names(scene.visible({ scope: 'favourites' })), ['Fiesole']);
  assert.deepEqual(names(scene.visible({ scope: 'favourites', query: 'sesto' })), []);
  assert.equal(scene.visible({ query: '   ' }).length, 7, 'a blank query filters nothing');
});

// ---------- Deleting ----------

test('delete all non-favourites keeps exactly the favourites', () => {
  const scene = new SceneState('import', FLORENCE);
  scene.toggleFavourite(3);
  scene.toggleFavourite(5);
  assert.equal(scene.removeNonFavourites(), 4);
  assert.deepEqual(names(scene.visible()), ['Scandicci', 'Bagno a Ripoli']);
  assert.equal(scene.removeNonFavourites(), 0);
});

test('removing an unknown city changes nothing', () => {
  const scene = new SceneState('browse', FLORENCE);
  assert.equal(scene.remove(99), false);
  assert.equal(scene.saveEnabled, false);
});

test('a taken city comes back in its place, favourite and order included, and Save stays enabled', () => {
  const scene = new SceneState(
    'browse',
    FLORENCE.map((c, i) => ({ ...c, position: i, favourite: c.geonameid === 4 })),
  );
  scene.moveFavouriteTo(4, 0);
  const before = { order: [...scene.order], mine: names(scene.myOrder()), seed: names(scene.sorted('seed')) };
  const taken = scene.take([3]);
  assert.deepEqual(
    taken.map((t) => [t.row.name, t.at]),
    [['Scandicci', 2]],
  );
  assert.equal(scene.get(3), undefined);
  assert.equal(scene.restore(taken), 1);
  assert.deepEqual(scene.order, before.order);
  assert.deepEqual(names(scene.myOrder()), before.mine);
  assert.deepEqual(names(scene.sorted('seed')), before.seed);
  assert.equal(scene.get(4).favourite, true);
  assert.equal(scene.saveEnabled, true);
  assert.equal(scene.restore(taken), 0, 'restoring twice adds nothing');
  assert.deepEqual(scene.take([99]), []);
});

test('taking all non-favourites and restoring them gives the same list back', () => {
  const scene = new SceneState('import', FLORENCE);
  scene.toggleFavourite(2);
  scene.toggleFavourite(6);
  const before = { order: [...scene.order], seed: names(scene.sorted('seed')) };
  const taken = scene.take(
    scene
      .myOrder()
      .filter((r) => !r.favourite)
      .map((r) => r.geonameid),
  );
  assert.equal(taken.length, 4);
  assert.deepEqual(names(scene.visible()), ['Florence', 'Impruneta']);
  scene.restore(taken);
  assert.deepEqual(scene.order, before.order);
  assert.deepEqual(names(scene.sorted('seed')), before.seed);
});

// ---------- Save-enabled rule and unsaved state ----------

test('Import is always enabled; Save only after a change, and then for good even if undone', () => {
  const importing = new SceneState('import', FLORENCE);
  assert.equal(importing.saveEnabled, true);

  const browsing = new SceneState('browse', FLORENCE);
  assert.equal(browsing.saveEnabled, false);
  assert.equal(browsing.unsaved, false);
  browsing.toggleFavourite(2);
  assert.equal(browsing.saveEnabled, true);
  browsing.toggleFavourite(2); // undone
  assert.equal(browsing.saveEnabled, true, 'Save stays enabled after the change is undone');
  browsing.markSaved();
  assert.equal(browsing.saveEnabled, true, 'and after saving');
  assert.equal(browsing.unsaved, false);
});

test('each kind of change enables Save: star, unstar, delete, reorder', () => {
  const favourites = FLORENCE.map((c) => ({ ...c, favourite: c.geonameid < 3, position: c.geonameid }));
  const actions = [
    (s) => s.toggleFavourite(3),
    (s) => s.toggleFavourite(1),
    (s) => s.remove(4),
    (s) => s.moveFavourite(2, -1),
    (s) => s.removeNonFavourites(),
  ];
  for (const act of actions) {
    const scene = new SceneState('browse', favourites);
    act(scene);
    assert.equal(scene.saveEnabled, true, String(act));
    assert.equal(scene.unsaved, true, String(act));
  }
});

test('an import scene is unsaved once the person changed its results, until they are imported', () => {
  const scene = new SceneState('import', FLORENCE);
  assert.equal(scene.unsaved, false, 'untouched results are found again: leaving them asks nothing');
  scene.toggleFavourite(2);
  assert.equal(scene.unsaved, true);
  scene.markSaved();
  assert.equal(scene.unsaved, false);
  scene.toggleFavourite(1);
  assert.equal(scene.unsaved, true, 'a change after the import is not imported yet');
  assert.equal(new SceneState('import', []).unsaved, false, 'nothing found, nothing to lose');
  const emptied = new SceneState('import', [FLORENCE[0]]);
  emptied.remove(1);
  assert.equal(emptied.unsaved, false);
});

test('moving a favourite in my order changes nothing else, and not past the ends', () => {
  const scene = new SceneState(
    'browse',
    FLORENCE.map((c, i) => ({ ...c, favourite: i < 3, position: i })),
  );
  assert.deepEqual(names(scene.myOrder()), ['Fiesole', 'Florence', 'Scandicci', 'Sesto Fiorentino', 'Bagno a Ripoli', 'Impruneta']);
  assert.equal(scene.moveFavourite(1, -1), false, 'the first cannot go up');
  assert.equal(scene.saveEnabled, false);
  assert.equal(scene.moveFavourite(3, 1), false, 'the last favourite cannot go below the favourites');
  assert.equal(scene.moveFavourite(3, -2), true);
  assert.deepEqual(names(scene.myOrder()), ['Scandicci', 'Fiesole', 'Florence', 'Sesto Fiorentino', 'Bagno a Ripoli', 'Impruneta']);
  assert.equal(scene.moveFavouriteTo(3, 2), true);
  assert.deepEqual(names(scene.myOrder()).slice(0, 3), ['Fiesole', 'Florence', 'Scandicci']);
  assert.equal(scene.moveFavourite(4, -1), false, 'a city that is not a favourite is not reordered by hand');
});

// ---------- Payloads ----------

test('the import payload holds every city with its favourite state, in my order', () => {
  const scene = new SceneState('import', FLORENCE);
  scene.toggleFavourite(5);
  scene.remove(3);
  assert.deepEqual(scene.payload(), {
    cities: [
      { geonameid: 5, favourite: true },
      { geonameid: 1, favourite: false },
      { geonameid: 2, favourite: false },
      { geonameid: 4, favourite: false },
      { geonameid: 6, favourite: false },
    ],
  });
});

test('the save payload is every row of the scene, not only the filtered ones', () => {
  const scene = new SceneState('browse', FLORENCE);
  assert.equal(scene.visible({ query: 'flo' }).length, 1);
  assert.equal(scene.payload().cities.length, FLORENCE.length);
});

test("the seed's example: 40 plain + 10 favourites, unfavourite 3, delete 13 plain, save → 30 plain + 7 favourites", () => {
  const collection = Array.from({ length: 50 }, (_, i) => ({
    ...city(1000 + i, `City ${i}`, 1000 * (i + 1)),
    favourite: i < 10,
    position: i,
  }));
  const scene = new SceneState('browse', collection);
  assert.equal(scene.saveEnabled, false);
  for (const id of [1000, 1001, 1002]) assert.equal(scene.toggleFavourite(id), false);
  const plain = scene
    .myOrder()
    .filter((r) => !r.favourite && r.geonameid >= 1010)
    .slice(0, 13);
  for (const row of plain) assert.ok(scene.remove(row.geonameid));
  assert.equal(scene.saveEnabled, true);

  const saved = scene.payload().cities;
  assert.equal(saved.length, 37);
  assert.equal(saved.filter((c) => c.favourite).length, 7);
  assert.equal(saved.filter((c) => !c.favourite).length, 30);
  assert.ok(
    saved.slice(0, 7).every((c) => c.favourite),
    'favourites lead my order',
  );
  assert.equal(new Set(saved.map((c) => c.geonameid)).size, 37, 'no duplicates');
  for (const id of [1000, 1001, 1002])
    assert.ok(
      saved.some((c) => c.geonameid === id && !c.favourite),
      'unfavourited cities stay, as plain ones',
    );
});

test('a city listed twice by the server is shown once', () => {
  const scene = new SceneState('import', [FLORENCE[0], FLORENCE[0]]);
  assert.equal(scene.size, 1);
});

// ---------- Coordinates typed by hand ----------

test('coordinates are read in the ways people type them', () => {
  assert.deepEqual(parseCoordinates('43.77, 11.25'), { latitude: 43.77, longitude: 11.25 });
  assert.deepEqual(parseCoordinates(' 43.77 11.25 '), { latitude: 43.77, longitude: 11.25 });
  assert.deepEqual(parseCoordinates('-33.9,18.4'), { latitude: -33.9, longitude: 18.4 });
  assert.deepEqual(parseCoordinates('43.7793° N, 11.2463° E'), { latitude: 43.7793, longitude: 11.2463 });
  assert.deepEqual(parseCoordinates('33.9 S 18.4 W'), { latitude: -33.9, longitude: -18.4 });
  assert.deepEqual(parseCoordinates('64,1; -21,9'), { latitude: 64.1, longitude: -21.9 }, 'decimal commas, a semicolon between');
  assert.deepEqual(parseCoordinates('64,1 -21,9'), { latitude: 64.1, longitude: -21.9 });
});

test('place names and impossible coordinates are not coordinates', () => {
  for (const text of ['Florence', '', '43.77', '95, 10', '45, 200', 'Route 66, 7']) assert.equal(parseCoordinates(text), null, text);
});

// ---------- Formatting ----------

test('temperatures in °C by default or °F', () => {
  assert.equal(formatTemperature(12.4), '12\u00a0°C');
  assert.equal(formatTemperature(12.4, 'F'), '54\u00a0°F');
  assert.equal(formatTemperature(-0.4), '0\u00a0°C', 'no "-0"');
  assert.equal(formatTemperature(-40, 'F'), '-40\u00a0°F');
  assert.equal(formatTemperature(null), '');
});

test("sunrise is shown in the city's own time zone", () => {
  assert.equal(formatLocalTime('2026-11-22T06:12:00Z', 'Europe/Rome'), '07:12');
  assert.equal(formatLocalTime('2026-11-22T06:12:00Z', 'Atlantic/Reykjavik'), '06:12');
  assert.equal(formatLocalTime('2026-06-22T23:30:00Z', 'Asia/Tokyo'), '08:30');
  assert.equal(formatLocalTime('', 'Europe/Rome'), '');
  assert.equal(formatLocalTime('2026-11-22T06:12:00Z', 'Not/AZone'), '06:12 UTC');
});

// ---------- The weather queue ----------

test('the queue runs at most 4 tasks at once and all of them in the end', async () => {
  const queue = createQueue(4);
  let running = 0;
  let most = 0;
  const task = (n) => async () => {
    running += 1;
    most = Math.max(most, running);
    await new Promise((resolve) => setTimeout(resolve, 5 + (n % 3)));
    running -= 1;
    if (n === 3) throw new Error('unavailable');
    return n;
  };
  const results = await Promise.allSettled(Array.from({ length: 12 }, (_, n) => queue.run(task(n))));
  assert.equal(most, 4);
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 11, 'one failure does not stop the others');
  assert.equal(results[3].status, 'rejected');
  assert.equal(results[11].value, 11);
});

test('clearing the queue drops the tasks not started yet', async () => {
  const queue = createQueue(1);
  let started = 0;
  const slow = () => {
    started += 1;
    return new Promise((resolve) => setTimeout(() => resolve('done'), 5));
  };
  const first = queue.run(slow);
  const second = queue.run(slow);
  queue.clear();
  assert.equal(await first, 'done');
  assert.equal(await second, undefined);
  assert.equal(started, 1);
});

test('found places read apart: the US state, the country, the population, the name that matched', () => {
  const florence = { name: 'Florence', country_code: 'US', country_name: 'United States', admin1_code: 'AL', population: 40026 };
  assert.equal(placeDetails(florence), ', AL, United States · 40,026 people');
  const firenze = {
    name: 'Florence',
    matched_name: 'Firenze',
    country_code: 'IT',
    country_name: 'Italy',
    admin1_code: '16',
    population: 367150,
  };
  assert.equal(placeDetails(firenze), ' (Firenze), Italy · 367,150 people');
  assert.equal(placeDetails({ name: 'Vatican City', country_code: 'VA', admin1_code: '', population: 0 }), ', VA');
});
