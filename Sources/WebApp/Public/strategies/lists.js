// Oblique Strategies: the pure part of the views that load when first shown (All, Mine, History), tested with
// node's runner (tests/js/strategies-logic.test.mjs): counting a card's characters, the All view's grouping and
// search, and the notes waiting on the device. Kept apart from logic.js, which comes with the page.
import { characterCount, plural } from '../js/format.js';
import { HISTORY, SCOPE, fold, sameText } from './logic.js';

export const MAX_LENGTH = 280; // an own card, as the server counts it
export const NOTE_MAX = 500; // a note on a draw

/** The counter under a card's text box: how many characters, and how many too many. */
export function countLine(text) {
  const n = characterCount(text.trim());
  const label = n > MAX_LENGTH ? `${n} of ${MAX_LENGTH} characters: ${n - MAX_LENGTH} too many` : `${n} of ${MAX_LENGTH} characters`;
  return { n, over: n > MAX_LENGTH, label };
}

/** Why an own card's text cannot be saved, or '' when it can. */
export function cardProblem(text) {
  const n = characterCount(text);
  if (n === 0) return 'Write a few words first.';
  if (n > MAX_LENGTH) return `A card holds at most ${MAX_LENGTH} characters; this one has ${n}.`;
  return '';
}

/**
 * Why a note cannot be saved, or ''. Written over `was` (notes two devices wrote, kept together, can pass the limit),
 * it may be as long as that, as the server takes it.
 */
export const noteProblem = (note, was = '') =>
  characterCount(note) > Math.max(NOTE_MAX, characterCount(was)) ? `A note holds at most ${NOTE_MAX} characters.` : '';

// ---------- All ----------

/**
 * All: one row per text, under the edition it first appeared in, naming every edition that has it.
 * → [{ edition, rows: [{ card, editions }] }] in deck order.
 */
export function groupAll(deck) {
  const texts = new Map(); // same text → its cards, in deck order
  for (const card of deck) {
    const key = sameText(card.strategy);
    if (!texts.has(key)) texts.set(key, []);
    texts.get(key).push(card);
  }
  const groups = new Map(); // first edition → its rows
  for (const cards of texts.values()) {
    const first = cards[0].edition;
    if (!groups.has(first)) groups.set(first, []);
    groups.get(first).push({ card: cards[0], editions: [...new Set(cards.map((card) => card.edition))] });
  }
  return [...groups].map(([edition, rows]) => ({ edition, rows }));
}

/** Whether a row's folded text matches a search (typed as it is; folded here). */
export const matchesSearch = (key, query) => !query || key.includes(fold(query.trim()));

/** The count above All: every card, the matches, or none. */
export function allCountLine(total, shown, query) {
  if (!query) return plural(total, 'card');
  if (shown === 0) return `No card matches “${query}”`;
  return `${shown} of ${plural(total, 'card')} match`;
}

// ---------- History ----------

const NOTE = /^\/api\/v1\/strategies\/history\/(\d+)$/; // HISTORY/{id}

/** The notes waiting in the outbox: history entry id → its note (null: removed); the last one wins. */
export function waitingNotes(entries) {
  const notes = new Map();
  for (const entry of entries) {
    const match = entry.scope === SCOPE && entry.method === 'PATCH' && NOTE.exec(entry.path);
    if (match) notes.set(Number(match[1]), entry.body?.note ?? null);
  }
  return notes;
}

/** The draws made offline that wait in the outbox to join the history ({card_id, drawn_at}), newest first. */
export function waitingDraws(entries) {
  return entries
    .filter((entry) => entry.scope === SCOPE && entry.method === 'POST' && entry.path === HISTORY && entry.body)
    .map((entry) => ({ card_id: entry.body.card_id, drawn_at: entry.body.drawn_at }))
    .sort((a, b) => (a.drawn_at < b.drawn_at ? 1 : a.drawn_at > b.drawn_at ? -1 : 0));
}

/** The history with the notes not sent yet in place of the server's. */
export const withNotes = (entries, notes) =>
  entries.map((entry) => (notes.has(entry.id) ? { ...entry, note: notes.get(entry.id) } : entry));
