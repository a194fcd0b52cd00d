// Unit tests for Oblique Strategies' pure logic (strategies/logic.js and lists.js): `node --test tests/js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  fold,
  sameText,
  cardId,
  editionLabel,
  metaFor,
  ownCard,
  newestFirst,
  swapId,
  readSettings,
  settingsSummary,
  drawQuery,
  drawPool,
  pickFrom,
  splitMix64,
  dayNumber,
  cardOfTheDay,
  emptyDeckMessage,
  shuffleLine,
  waitingFavourites,
  mergeFavourites,
  legacyFavourites,
} from '../../Sources/WebApp/Public/strategies/logic.js';
import {
  countLine,
  cardProblem,
  noteProblem,
  groupAll,
  matchesSearch,
  allCountLine,
  waitingNotes,
  waitingDraws,
  withNotes,
  MAX_LENGTH,
} from '../../Sources/WebApp/Public/strategies/lists.js';

const labels = new Map([
  [1, '1st edition (1975)'],
  [2, '2nd edition (1978)'],
]);
const card = (id, edition, cardnumber, strategy) => ({ id, edition, cardnumber, strategy });
const deck = [
  card(1, 1, 1, 'Honour the accident as a plan'),
  card(2, 1, 2, 'Begin with the ending'),
  card(3, 2, 1, 'Honor the accident as a plan'),
  card(4, 2, 2, 'Begin with the ending!'),
  card(5, 2, 3, 'Émphasize the seams'),
];

test('search folds case and accents; the same text ignores punctuation', () => {
  assert.equal(fold('Émphasize'), 'emphasize');
  assert.equal(sameText('Begin with the ending!'), sameText('begin with the ENDING'));
  assert.ok(matchesSearch(fold('Émphasize the seams'), '  EMPHA '));
  assert.ok(matchesSearch('anything', ''));
  assert.ok(!matchesSearch(fold('Begin with the ending'), 'walk'));
});

test('a card counts its characters as a person does', () => {
  assert.equal(countLine('👍🏽 ok').n, 4);
  assert.deepEqual(countLine(' abc '), { n: 3, over: false, label: `3 of ${MAX_LENGTH} characters` });
  const long = 'x'.repeat(MAX_LENGTH + 2);
  assert.equal(countLine(long).label, `${MAX_LENGTH + 2} of ${MAX_LENGTH} characters: 2 too many`);
  assert.equal(cardProblem(''), 'Write a few words first.');
  assert.match(cardProblem(long), /at most 280 characters; this one has 282/);
  assert.equal(cardProblem('Go slowly'), '');
  assert.equal(noteProblem('x'.repeat(500)), '');
  assert.match(noteProblem('x'.repeat(501)), /at most 500/);
  // Over two devices' notes kept together (longer than 500): as long as they are, and no longer.
  const kept = `${'a'.repeat(300)} · ${'b'.repeat(300)}`;
  assert.equal(noteProblem(kept.slice(1), kept), '');
  assert.match(noteProblem(`${kept}!`, kept), /at most 500/);
});

test('card ids from the page: numbers, or a card made on this device', () => {
  assert.equal(cardId('12'), 12);
  assert.equal(cardId(12), 12);
  assert.equal(cardId('tmp-abc'), 'tmp-abc');
  assert.equal(cardId('12x'), null);
  assert.equal(cardId(undefined), null);
});

test('editions and the line under a card', () => {
  assert.equal(editionLabel(labels, 2), '2nd edition (1978)');
  assert.equal(editionLabel(labels, 7), 'Edition 7');
  assert.equal(editionLabel(labels, 0), 'My cards');
  assert.equal(metaFor(labels, deck[4]), '2nd edition (1978) · card 3');
  assert.equal(metaFor(labels, ownCard('tmp-1', 'Mine')), 'My card');
});

test('own cards newest first, those made on the device before the rest; a temporary id swapped for the real one', () => {
  const mine = [ownCard(7, 'a'), ownCard(9, 'b'), ownCard('tmp-x', 'c')];
  assert.deepEqual(
    newestFirst(mine).map((c) => c.id),
    ['tmp-x', 9, 7],
  );
  assert.deepEqual(
    swapId(mine, 'tmp-x', 10).map((c) => c.id),
    [7, 9, 10],
  );
  assert.equal(swapId(null, 'tmp-x', 10), null);
});

test('settings: checked when read, summarised, and turned into a draw query', () => {
  assert.deepEqual(readSettings({ source: 'mine', edition: '2', shuffle: true }, ['', '1', '2']), {
    source: 'mine',
    edition: '2',
    shuffle: true,
  });
  assert.deepEqual(readSettings({ source: 'nonsense', edition: '9', shuffle: 'yes' }, ['', '1']), {
    source: 'published',
    edition: '',
    shuffle: false,
  });
  assert.deepEqual(readSettings(null, []), { source: 'published', edition: '', shuffle: false });
  assert.equal(settingsSummary({ source: 'published', edition: '', shuffle: false }, labels), '');
  assert.equal(
    settingsSummary({ source: 'all', edition: '1', shuffle: true }, labels),
    '· Published and mine · 1st edition (1975) · Shuffle',
  );
  assert.equal(settingsSummary({ source: 'mine', edition: '1', shuffle: false }, labels), '· My cards');
  assert.equal(drawQuery({ source: 'published', edition: '2' }), '?source=published&edition=2');
  assert.equal(drawQuery({ source: 'mine', edition: '2' }), '?source=mine');
});

test('a draw on the device picks from the chosen edition, own cards or both, uniformly', () => {
  const mine = [ownCard(20, 'Mine')];
  assert.deepEqual(
    drawPool(deck, mine, { source: 'published', edition: '1' }).map((c) => c.id),
    [1, 2],
  );
  assert.deepEqual(
    drawPool(deck, mine, { source: 'mine', edition: '1' }).map((c) => c.id),
    [20],
  );
  assert.deepEqual(
    drawPool(deck, mine, { source: 'all', edition: '' }).map((c) => c.id),
    [1, 2, 3, 4, 5, 20],
  );
  assert.deepEqual(
    drawPool(deck, null, { source: 'all', edition: '2' }).map((c) => c.id),
    [3, 4, 5],
  );
  const pool = [1, 2, 3, 4];
  assert.equal(pickFrom(pool, 0), 1);
  assert.equal(pickFrom(pool, 2 ** 32 - 1), 4);
  assert.equal(pickFrom(pool, 2 ** 31), 3);
  assert.equal(pickFrom([], 5), null);
});

test('wording: an empty deck and the shuffle', () => {
  assert.match(emptyDeckMessage('mine'), /no cards of your own/);
  assert.equal(emptyDeckMessage('published', 'No card in that edition.'), 'No card in that edition.');
  assert.equal(emptyDeckMessage('all'), 'There are no cards to draw from with these settings.');
  assert.equal(shuffleLine({ total: 0, remaining: 0 }), 'No cards to shuffle');
  assert.equal(shuffleLine({ total: 1, remaining: 1 }), '1 of 1 card left');
  assert.equal(shuffleLine({ total: 9, remaining: 4 }), '4 of 9 cards left');
});

test('All: one row per text under the edition it first appeared in, naming every edition that has it', () => {
  const groups = groupAll(deck);
  assert.deepEqual(
    groups.map((g) => g.edition),
    [1, 2],
  );
  assert.deepEqual(
    groups[0].rows.map((r) => [r.card.id, r.editions]),
    [
      [1, [1]],
      [2, [1, 2]],
    ],
  );
  assert.deepEqual(
    groups[1].rows.map((r) => [r.card.id, r.editions]),
    [
      [3, [2]],
      [5, [2]],
    ],
  );
  assert.equal(allCountLine(8, 8, ''), '8 cards');
  assert.equal(allCountLine(8, 0, 'zzz'), 'No card matches “zzz”');
  assert.equal(allCountLine(8, 1, 'empha'), '1 of 8 cards match');
});

const entry = (method, path, extra = {}) => ({ method, path, scope: 'strategies', ...extra });

test('the favourite changes waiting in the outbox: the last of each card wins; other writes and apps are ignored', () => {
  const waiting = waitingFavourites([
    entry('PUT', '/api/v1/strategies/3/favourite'),
    entry('PUT', '/api/v1/strategies/4/favourite'),
    entry('DELETE', '/api/v1/strategies/3/favourite'),
    entry('PUT', '/api/v1/strategies/tmp-a/favourite'),
    entry('POST', '/api/v1/strategies/mine'),
    { ...entry('PUT', '/api/v1/cities/collection/3/favourite'), scope: 'cities' },
  ]);
  assert.deepEqual(
    [...waiting],
    [
      [3, false],
      [4, true],
      ['tmp-a', true],
    ],
  );
});

test('favourites: the server list with what waits, what is leaving and what changed here since on top', () => {
  const server = [deck[0], deck[1], deck[2]];
  const known = new Map(deck.map((c) => [c.id, c]));
  const { ids, list } = mergeFavourites(server, {
    waiting: new Map([
      [2, false],
      [5, true],
    ]),
    leaving: new Set([3]),
    changes: new Map([
      [1, { on: false, seq: 1 }],
      [4, { on: true, seq: 3 }],
    ]),
    since: 2,
    find: (id) => known.get(id) ?? null,
  });
  // 1 stays (its change is older than the list), 2 waits to go, 3 is leaving; 5 waits to come, 4 was added since.
  assert.deepEqual([...ids].sort(), [1, 4, 5]);
  assert.deepEqual(
    list.map((c) => c.id),
    [4, 5, 1],
  );
  // A card this page does not know is left out of the list but kept as a favourite.
  const unknown = mergeFavourites([], { waiting: new Map([[99, true]]) });
  assert.deepEqual([...unknown.ids], [99]);
  assert.deepEqual(unknown.list, []);
});

test('favourites queued by the page before the outbox are read once as writes', () => {
  assert.deepEqual(legacyFavourites('{"3":true,"4":false,"x":true}'), [
    [3, true],
    [4, false],
  ]);
  assert.deepEqual(legacyFavourites(null), []);
  assert.deepEqual(legacyFavourites('not json'), []);
  assert.deepEqual(legacyFavourites('[1,2]'), []);
});

test('notes waiting in the outbox replace the server’s in the history', () => {
  const notes = waitingNotes([
    entry('PATCH', '/api/v1/strategies/history/5', { body: { note: 'first' } }),
    entry('PATCH', '/api/v1/strategies/history/5', { body: { note: 'second' } }),
    entry('PATCH', '/api/v1/strategies/history/6', { body: { note: null } }),
    entry('PATCH', '/api/v1/strategies/mine/6', { body: { strategy: 'x' } }),
  ]);
  assert.deepEqual(
    [...notes],
    [
      [5, 'second'],
      [6, null],
    ],
  );
  const history = [
    { id: 5, note: null },
    { id: 6, note: 'old' },
    { id: 7, note: 'kept' },
  ];
  assert.deepEqual(
    withNotes(history, notes).map((e) => e.note),
    ['second', null, 'kept'],
  );
});

test('draws made offline wait in the outbox to join the history, newest first', () => {
  assert.deepEqual(
    waitingDraws([
      entry('POST', '/api/v1/strategies/history', { body: { card_id: 3, drawn_at: '2026-11-28T10:00:00Z' } }),
      entry('PATCH', '/api/v1/strategies/history/5', { body: { note: 'a note' } }),
      entry('POST', '/api/v1/strategies/mine', { body: { strategy: 'x' } }),
      entry('POST', '/api/v1/strategies/history', { body: { card_id: 9, drawn_at: '2026-11-28T11:30:00Z' } }),
      entry('POST', '/api/v1/strategies/history', { scope: 'poetry', body: { card_id: 4, drawn_at: '2026-11-28T12:00:00Z' } }),
    ]),
    [
      { card_id: 9, drawn_at: '2026-11-28T11:30:00Z' },
      { card_id: 3, drawn_at: '2026-11-28T10:00:00Z' },
    ],
  );
  assert.deepEqual(waitingDraws([]), []);
});

test('the card of the day is the one the server chooses (CardPickerTests pins the same cards)', () => {
  // splitMix64 as ObliqueStrategies' CardPicker computes it, on 64-bit words (a negative day wraps around).
  assert.equal(splitMix64(0), 16294208416658607535n);
  assert.equal(splitMix64(-1), 16490336266968443936n);
  assert.equal(splitMix64(20785), 527933253063149331n);
  // The calendar day where the device is: noon UTC is the same day from Los Angeles to Tokyo.
  assert.equal(dayNumber(new Date('2026-11-28T12:00:00Z')), 20785);
  assert.equal(dayNumber(new Date(2026, 10, 28, 0, 30)), 20785);
  assert.equal(dayNumber(new Date(2026, 10, 28, 23, 30)), 20785);
  const deck = Array.from({ length: 20 }, (_, i) => ({
    id: i + 1,
    edition: i < 10 ? 1 : 2,
    cardnumber: (i % 10) + 1,
    strategy: `Card ${i + 1}`,
  }));
  const extra = [ownCard(99, 'Mine'), { id: 500, edition: 100, cardnumber: 1, strategy: 'Extra' }];
  const on = (y, m, d) => cardOfTheDay([...extra, ...deck].reverse(), new Date(y, m - 1, d, 9)).id;
  assert.equal(on(2026, 11, 28), 12);
  assert.equal(on(2026, 11, 29), 16);
  assert.equal(on(1970, 1, 2), 6);
  assert.equal(cardOfTheDay(extra, new Date()), null);
});
