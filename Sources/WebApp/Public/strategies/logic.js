// Oblique Strategies: the pure part (no DOM), tested with node's runner (tests/js/strategies-logic.test.mjs).
// The deck and its filters, the settings, the favourites merged with what waits on the device, and the draw
// view's wording. The views that load when first shown have theirs in lists.js.
import { plural } from '../js/format.js';

export const API = '/api/v1/strategies';
export const SCOPE = 'strategies'; // this app's writes in the shared outbox (js/sync.js)
export const HISTORY = `${API}/history`; // the draws recorded, newest first

// ---------- Text ----------

/** Case- and accent-insensitive form of a text, for searching. */
export function fold(text) {
  return String(text).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Texts that differ only in case, accents or punctuation are the same card in several editions. */
export const sameText = (text) =>
  fold(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

// ---------- Cards and editions ----------

/** A card id from the page (a data attribute, a URL): a number, or a card made on this device ('tmp-…'). */
export function cardId(value) {
  const text = String(value ?? '');
  if (/^\d+$/.test(text)) return Number(text);
  return text.startsWith('tmp-') ? text : null;
}

/** An edition's name: 'My cards' for edition 0, its label when known. */
export function editionLabel(labels, edition) {
  if (edition === 0) return 'My cards';
  return labels.get(edition) || `Edition ${edition}`;
}

/** The line under a card. */
export function metaFor(labels, card) {
  if (card.edition === 0) return 'My card';
  return `${editionLabel(labels, card.edition)} · card ${card.cardnumber}`;
}

/** An own card written on this device, until the server gives it its id. */
export const ownCard = (id, strategy) => ({ id, edition: 0, cardnumber: 0, strategy });

/** Own cards newest first: those made on this device (not on the server yet) before the rest. */
export function newestFirst(cards) {
  const rank = (card) => (typeof card.id === 'number' ? card.id : Infinity);
  return cards.slice().sort((a, b) => rank(b) - rank(a));
}

/** Every card with id `temp` given id `real` (an own card made offline, once the server has it). */
export function swapId(cards, temp, real) {
  return cards && cards.map((card) => (card.id === temp ? { ...card, id: real } : card));
}

// ---------- Draw settings ----------

export const SOURCES = ['published', 'mine', 'all'];

/** The settings kept on the device, checked: anything unknown falls back to the default. */
export function readSettings(saved, editions) {
  const value = saved && typeof saved === 'object' ? saved : {};
  return {
    source: SOURCES.includes(value.source) ? value.source : 'published',
    edition: typeof value.edition === 'string' && editions.includes(value.edition) ? value.edition : '',
    shuffle: value.shuffle === true,
  };
}

/** The words after "Draw settings" when something other than the default is chosen. */
export function settingsSummary(settings, labels) {
  const parts = [];
  if (settings.source === 'mine') parts.push('My cards');
  if (settings.source === 'all') parts.push('Published and mine');
  if (settings.edition && settings.source !== 'mine') parts.push(editionLabel(labels, Number(settings.edition)));
  if (settings.shuffle) parts.push('Shuffle');
  return parts.length ? `· ${parts.join(' · ')}` : '';
}

/** The query of a draw with these settings: '?source=…[&edition=…]'. */
export function drawQuery(settings) {
  const params = new URLSearchParams({ source: settings.source });
  if (settings.edition && settings.source !== 'mine') params.set('edition', settings.edition);
  return `?${params}`;
}

/** The cards a draw on the device picks from (offline): the chosen edition of the deck, own cards, or both. */
export function drawPool(deck, mine, settings) {
  let pool = [];
  if (settings.source !== 'mine') {
    const edition = Number(settings.edition);
    pool = settings.edition ? deck.filter((card) => card.edition === edition) : deck.slice();
  }
  if (settings.source !== 'published' && mine) pool = pool.concat(mine);
  return pool;
}

/** One card of `pool`, uniformly, for a random 32-bit number; null for an empty pool. */
export const pickFrom = (pool, random32) => (pool.length ? pool[Math.floor((random32 / 2 ** 32) * pool.length)] : null);

// The card of the day as the server chooses it (ObliqueStrategies' CardPicker.cardOfTheDay), so that Today
// shows the same card without the server: the cards of editions 1 to 4 in (edition, number, id) order, the one at
// splitMix64(day) modulo their count, where day counts the calendar days since 1970-01-01 in the person's zone.
const MASK = (1n << 64n) - 1n;
export function splitMix64(value) {
  let z = (BigInt.asUintN(64, BigInt(value)) + 0x9e3779b97f4a7c15n) & MASK;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}

/** Days since 1970-01-01 of the calendar date `date` falls on where the device is. */
export const dayNumber = (date) => Math.floor((date.getTime() / 1000 - date.getTimezoneOffset() * 60) / 86_400);

export function cardOfTheDay(deck, date) {
  const cards = deck
    .filter((card) => card.edition >= 1 && card.edition <= 4)
    .sort((a, b) => a.edition - b.edition || a.cardnumber - b.cardnumber || a.id - b.id);
  if (!cards.length) return null;
  return cards[Number(splitMix64(dayNumber(date)) % BigInt(cards.length))];
}

/** Why nothing could be drawn. */
export function emptyDeckMessage(source, message) {
  if (source === 'mine') return 'You have no cards of your own yet. Write one under “Mine”.';
  return message || 'There are no cards to draw from with these settings.';
}

/** The shuffle's line: how many cards are left. */
export const shuffleLine = ({ total, remaining }) =>
  total === 0 ? 'No cards to shuffle' : `${remaining} of ${plural(total, 'card')} left`;

// ---------- Favourites ----------

const FAVOURITE = /^\/api\/v1\/strategies\/([^/]+)\/favourite$/;

/** The favourite changes waiting in the outbox (js/sync.js entries, in order): id → on (the last one wins). */
export function waitingFavourites(entries) {
  const changes = new Map();
  for (const entry of entries) {
    const match = entry.scope === SCOPE && FAVOURITE.exec(entry.path);
    const id = match && cardId(match[1]);
    if (id !== null && id !== undefined && match) changes.set(id, entry.method === 'PUT');
  }
  return changes;
}

/**
 * The favourites to show: the server's list (newest first), with what the server does not have yet on top of
 * it: the changes waiting in the outbox, the removals whose Undo has not run out (`leaving`), and the changes
 * made on this page after the list was asked for (`changes`: id → {on, seq}, newer than `since`). A card
 * favourited here but not in the server's list comes first, found by `find(id)`.
 */
export function mergeFavourites(
  cards,
  { waiting = new Map(), leaving = new Set(), changes = new Map(), since = 0, find = () => null } = {},
) {
  const byID = new Map(cards.map((card) => [card.id, card]));
  const ids = new Set(byID.keys());
  const set = (id, on) => (on ? ids.add(id) : ids.delete(id));
  for (const [id, on] of waiting) set(id, on);
  for (const id of leaving) ids.delete(id);
  for (const [id, change] of changes) if (change.seq > since) set(id, change.on);
  const list = cards.filter((card) => ids.has(card.id));
  for (const id of ids) {
    if (byID.has(id)) continue;
    const card = find(id);
    if (card) list.unshift(card);
  }
  return { ids, list };
}

/** The offline-queued favourites of the page before the shared outbox ({id: on} in localStorage), as writes. */
export function legacyFavourites(text) {
  let map;
  try {
    map = JSON.parse(text || '{}');
  } catch {
    return [];
  }
  if (!map || typeof map !== 'object' || Array.isArray(map)) return [];
  return Object.entries(map)
    .map(([id, on]) => [cardId(id), on === true])
    .filter(([id]) => id !== null);
}
