// Oblique Strategies: favourites, on the draw view's buttons and in the Favourites view. A change shows at once
// and goes through the shared offline layer (js/sync.js): sent now when the server answers, else kept in the
// device's outbox with its Idempotency-Key and sent once when it is back (the last change of a card wins).
import { toast, undoable } from '../js/api.js';
import { make } from '../js/dom.js';
import { all, keep, prepare, read, send, waiting } from '../js/sync.js';
import { API, SCOPE, mergeFavourites, waitingFavourites, legacyFavourites } from './logic.js';
import { ui, state, say, isNetworkError, findKnownCard, cardButton } from './page.js';
import { updateCardButtons } from './draw.js';

const leaving = new Set(); // ids removed from the list whose Undo has not run out (not sent yet)
const removals = new Map(); // id → its undoable removal
const changes = new Map(); // id → { on, seq }: changes made here, replayed over a list fetched meanwhile
let seq = 0;
let queue = Promise.resolve(); // one change at a time, in the order they were made

const path = (id) => `${API}/${id}/favourite`;
const LIST = `${API}/favourites`;
const remember = (id, on) => changes.set(id, { on, seq: ++seq });

function apply(card, on) {
  if (on) state.favIDs.add(card.id);
  else state.favIDs.delete(card.id);
  if (state.favourites) {
    state.favourites = state.favourites.filter((item) => item.id !== card.id);
    if (on) state.favourites.unshift(card);
    // The copy a start reads with no network follows the changes made here: it was the list as last read, and a
    // favourite added since (and sent) was missing from the Favourites view offline.
    keep(LIST, state.favourites);
  }
  updateCardButtons();
  if (state.view === 'favourites') renderFavourites();
}

const changeOptions = (card, on) => ({
  label: `${on ? 'adding' : 'removing'} the favourite “${card.strategy}”`,
  scope: SCOPE,
  replace: `${SCOPE}:favourite:${card.id}`, // the last change of a card wins
});

/** Sends a change after those before it: resolves { data } or { queued: true }; a refusal is thrown. */
function sendFavourite(card, on, options = {}) {
  const task = queue.then(() => send(on ? 'PUT' : 'DELETE', path(card.id), undefined, { ...changeOptions(card, on), ...options }));
  queue = task.catch(() => {});
  return task;
}

function waitingNote(sent) {
  if (sent.queued) ui.syncNote.hidden = false;
}

export async function setFavourite(card, on) {
  if (!card) return;
  // Favourited again while its removal waits for the Undo to run out: that is the Undo; removed again
  // (from the card): the removal goes now.
  const removal = removals.get(card.id);
  if (removal && leaving.has(card.id)) {
    if (on) removal.undo();
    else removal.commit();
    return;
  }
  remember(card.id, on);
  apply(card, on);
  try {
    const sent = await sendFavourite(card, on);
    waitingNote(sent);
    if (!sent.queued) say(on ? 'Added to favourites' : 'Removed from favourites');
  } catch (error) {
    apply(card, error.status === 404 ? false : !on);
    toast(error.message);
  }
}

// Kept by a page of an earlier version: a removal sent as the page was left (the shared offline layer keeps
// those now, js/sync.js), to be sent again through the outbox with its key.
const LEFT = 'trove.strategies.leftWrites';
function left() {
  try {
    const list = JSON.parse(localStorage.getItem(LEFT) || '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/**
 * Removes a favourite from the Favourites list at once, with an Undo in the toast. The DELETE waits until the
 * Undo runs out (or the page is left: then it goes at once, and is kept for the next page too), so Undo puts the
 * card back in its place in the list, on the server too, untouched.
 */
export function removeFavourite(card) {
  prepare(); // the sending part, loaded now: a removal committed by leaving the page must start at once
  const at = state.favourites ? state.favourites.findIndex((item) => item.id === card.id) : -1;
  leaving.add(card.id);
  remember(card.id, false);
  apply(card, false);
  const putBack = () => {
    leaving.delete(card.id);
    remember(card.id, true);
    state.favIDs.add(card.id);
    if (state.favourites) {
      state.favourites = state.favourites.filter((item) => item.id !== card.id);
      state.favourites.splice(at >= 0 ? Math.min(at, state.favourites.length) : 0, 0, card);
    }
    updateCardButtons();
    if (state.view === 'favourites') renderFavourites();
  };
  const removal = undoable(`Removed “${card.strategy}” from favourites`, {
    undo: () => {
      putBack();
      ui.favList.querySelector(`[data-remove="${card.id}"]`)?.focus();
      say('Back in favourites');
    },
    commit: async ({ keepalive } = {}) => {
      leaving.delete(card.id);
      removals.delete(card.id);
      remember(card.id, false); // a list fetched while the DELETE is on its way must not bring the card back
      if (keepalive) {
        // Not behind the queue of changes: the page is going. The layer keeps it for the next page as it sends.
        send('DELETE', path(card.id), undefined, { ...changeOptions(card, false), keepalive: true }).catch(() => {});
        return;
      }
      try {
        waitingNote(await sendFavourite(card, false));
      } catch (error) {
        if (error.status !== 404) {
          putBack();
          toast(error.message);
        }
      }
    },
  });
  removals.set(card.id, removal);
}

/** The favourites: the server's (or the device's copy offline), with the changes not sent yet on top. */
export async function loadFavourites() {
  const since = seq;
  const [cards, entries] = await Promise.all([read(LIST), all()]);
  const waitingNow = waitingFavourites(entries);
  const { ids, list } = mergeFavourites(cards, { waiting: waitingNow, leaving, changes, since, find: findKnownCard });
  state.favIDs = ids;
  state.favourites = list;
  state.favKnown = true;
  ui.syncNote.hidden = waitingNow.size === 0;
  updateCardButtons();
  if (state.view === 'favourites') renderFavourites();
}

/** Without the server or a copy of the list: the favourites this device knows of (those waiting to be sent). */
export async function favouritesFromOutbox() {
  for (const [id, on] of waitingFavourites(await all())) if (on) state.favIDs.add(id);
  state.favKnown = true;
  updateCardButtons();
}

export function renderFavourites() {
  const list = state.favourites || [];
  ui.favEmpty.hidden = list.length > 0;
  ui.favEmpty.textContent = 'No favourites yet. Draw a card and choose “Add to favourites” to keep it here.';
  // The view draws what it has at once, then again once the list is read: only when the cards differ, or the
  // Remove button under a finger would be swapped for an identical new one.
  const shown = [...ui.favList.children].map((li) => [
    li.querySelector('[data-remove]')?.dataset.remove,
    li.querySelector('.os-item span')?.textContent,
  ]);
  if (JSON.stringify(shown) === JSON.stringify(list.map((card) => [String(card.id), card.strategy]))) {
    for (const card of list) state.known.set(card.id, card);
    return;
  }
  ui.favList.replaceChildren(
    ...list.map((card) =>
      make(
        'li',
        { className: 'os-row' },
        cardButton(card),
        make('button', {
          type: 'button',
          className: 'button os-remove',
          text: 'Remove',
          'aria-label': `Remove “${card.strategy}” from favourites`,
          dataset: { remove: card.id },
        }),
      ),
    ),
  );
}

export async function enterFavourites() {
  if (state.favourites) renderFavourites();
  try {
    await loadFavourites();
    renderFavourites();
  } catch (error) {
    if (!state.favourites) {
      ui.favEmpty.hidden = false;
      ui.favEmpty.textContent = isNetworkError(error) ? 'Your favourites cannot be loaded while offline.' : error.message;
    }
  }
}

/**
 * Hands the writes kept outside the outbox to it, once: removals sent as a page was left (with their key), and
 * favourites queued offline by the page before the outbox (localStorage; PUT and DELETE are idempotent).
 */
export async function adoptKeptWrites() {
  for (const write of left()) {
    const card = findKnownCard(write.id) || { id: write.id, strategy: write.strategy };
    await sendFavourite(card, false, { key: write.key }).then(waitingNote, () => {}); // already gone: nothing to do
    try {
      localStorage.setItem(LEFT, JSON.stringify(left().filter((other) => other.key !== write.key)));
    } catch {
      // Storage unavailable: nothing was kept there either.
    }
  }
  const LEGACY = 'trove.strategies.pendingFavourites';
  let legacy = [];
  try {
    legacy = legacyFavourites(localStorage.getItem(LEGACY));
    localStorage.removeItem(LEGACY);
  } catch {
    legacy = [];
  }
  for (const [id, on] of legacy) {
    await sendFavourite(findKnownCard(id) || { id, strategy: `card ${id}` }, on).then(waitingNote, () => {});
  }
}

// What waited reached the server: the list is read again; the note goes when nothing of this app waits.
addEventListener('trove:synced', async ({ detail }) => {
  if (!detail.scopes.includes(SCOPE)) return;
  if (!(await waiting(SCOPE))) ui.syncNote.hidden = true;
  loadFavourites().catch(() => {});
});

// Favourite clicks in the lists and on the draw view.
ui.favAdd.addEventListener('click', () => setFavourite(state.card, true));
ui.favRemove.addEventListener('click', () => setFavourite(state.card, false));
