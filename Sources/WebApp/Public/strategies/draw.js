// Oblique Strategies: the draw view: the card, its buttons, the draw settings and the shuffle. A draw asks the
// server (which records it in the history); without the server, a card is drawn from the deck held in memory.
import { api, toast } from '../js/api.js';
import { make, busy, copyText } from '../js/dom.js';
import { kept, read, send } from '../js/sync.js';
import { plural } from '../js/format.js';
import { viewPath } from '../js/router.js';
import {
  API,
  SCOPE,
  HISTORY,
  readSettings,
  settingsSummary,
  drawQuery as queryFor,
  drawPool,
  pickFrom,
  emptyDeckMessage,
  shuffleLine,
} from './logic.js';
import { ui, state, router, meta, isNetworkError, findKnownCard, loadDeck, loadMine } from './page.js';

const SETTINGS_KEY = 'trove.strategies.settings';
const PROMPT = 'Tap for an Oblique Strategy';

export const settings = { source: 'published', edition: '', shuffle: false };
let drawing = false;

// ---------- Settings ----------

export function loadSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}');
  } catch {
    saved = {};
  }
  Object.assign(
    settings,
    readSettings(
      saved,
      [...ui.edition.options].map((option) => option.value),
    ),
  );
  ui.source.value = settings.source;
  ui.edition.value = settings.edition;
  ui.shuffle.checked = settings.shuffle;
  reflectSettings();
}

function saveSettings() {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Private mode: the settings last for this visit only.
  }
}

export function reflectSettings() {
  ui.edition.disabled = settings.source === 'mine';
  ui.settingsSummary.textContent = settingsSummary(settings, state.labels);
  ui.shuffleRow.hidden = !settings.shuffle;
}

const drawQuery = () => queryFor(settings);

function onSettingsChange() {
  settings.source = ui.source.value;
  settings.edition = ui.edition.value;
  settings.shuffle = ui.shuffle.checked;
  saveSettings();
  reflectSettings();
  if (settings.shuffle) refreshShuffle();
  if (settings.source !== 'published') loadMine().catch(() => {});
}

// ---------- Shuffle ----------

function showShuffle(result) {
  if (!result || typeof result.total !== 'number') return;
  ui.shuffleStatus.textContent = shuffleLine(result);
}

export async function refreshShuffle() {
  try {
    showShuffle(await api('GET', `${API}/shuffle${drawQuery()}`));
  } catch (error) {
    ui.shuffleStatus.textContent = isNetworkError(error) ? 'Shuffle unavailable offline' : error.message;
  }
}

function resetShuffle() {
  return busy(ui.shuffleReset, async () => {
    try {
      await api('DELETE', `${API}/shuffle`);
      const result = await api('GET', `${API}/shuffle${drawQuery()}`);
      showShuffle(result);
      toast(`Reshuffled: all ${plural(result.total, 'card')} are back.`);
    } catch (error) {
      toast(error.message);
    }
  });
}

// ---------- The card ----------

/** how: 'draw' and 'offline' (a draw: its card goes into the URL), 'link' (opened by its URL), 'pick' (chosen). */
export function showCard(card, how = 'draw') {
  state.card = card;
  ui.draw.classList.remove('is-prompt');
  ui.text.classList.remove('is-new');
  ui.text.textContent = card.strategy;
  void ui.text.offsetWidth; // restart the fade
  ui.text.classList.add('is-new');
  ui.meta.textContent = meta(card);
  ui.announce.textContent = `${card.strategy}. ${meta(card)}.`;
  ui.offline.hidden = how !== 'offline';
  // A draw refines the draw view: its card goes into the URL without a new history entry.
  if (how === 'draw' || how === 'offline') router.go(viewPath('card', card.id), { replace: true, quiet: true });
  updateCardButtons();
}

export function showPrompt() {
  state.card = null;
  ui.draw.classList.add('is-prompt');
  ui.text.textContent = PROMPT;
  ui.meta.textContent = '';
  updateCardButtons();
}

/** Add and remove are never both enabled: neither before a card is shown, then only the one that fits. */
export function updateCardButtons() {
  const card = state.card;
  const favourite = card ? state.favIDs.has(card.id) : false;
  const hadFocus = document.activeElement;
  ui.favAdd.disabled = !card || !state.favKnown || favourite;
  ui.favRemove.disabled = !card || !state.favKnown || !favourite;
  ui.share.disabled = !card;
  ui.cardFav.hidden = !card || !state.favKnown || !favourite;
  if ((hadFocus === ui.favAdd && ui.favAdd.disabled) || (hadFocus === ui.favRemove && ui.favRemove.disabled)) {
    (ui.favAdd.disabled ? ui.favRemove : ui.favAdd).focus();
  }
}

export async function drawCard() {
  if (drawing) return;
  if (settings.source === 'mine' && state.mine && state.mine.length === 0) {
    toast(emptyDeckMessage(settings.source));
    return;
  }
  drawing = true;
  ui.draw.setAttribute('aria-busy', 'true');
  try {
    if (settings.shuffle) {
      const result = await api('POST', `${API}/shuffle/draw${drawQuery()}`);
      showCard(result.card);
      showShuffle(result);
      keepHistoryFresh();
      if (result.reshuffled) toast('Every card had been drawn, so the deck was shuffled again.');
    } else {
      showCard(await api('POST', `${API}/random${drawQuery()}`)); // POST: a draw is recorded in the history
      keepHistoryFresh();
    }
  } catch (error) {
    if (isNetworkError(error)) {
      const card = await drawLocally();
      if (card) {
        showCard(card, 'offline');
        recordOfflineDraw(card);
      } else {
        toast(error.message);
      }
    } else if (error.code === 'empty_deck') {
      toast(emptyDeckMessage(settings.source, error.message));
    } else {
      toast(error.message);
    }
  } finally {
    drawing = false;
    ui.draw.removeAttribute('aria-busy');
  }
}

// The history kept on the device (what History opens with offline) was read before this draw: once the draws
// stop for a moment it is read again, so that a draw made online is in it. A device that never opened History
// keeps no copy, and reads nothing here.
let freshening = 0;
function keepHistoryFresh() {
  clearTimeout(freshening);
  freshening = setTimeout(async () => {
    if ((await kept(HISTORY)) !== undefined) read(HISTORY).catch(() => {});
  }, 1000);
}

/** A draw made offline joins the history when the connection returns, at the time it was made. */
function recordOfflineDraw(card) {
  if (!Number.isInteger(card.id)) return; // a card written offline has the device's id until it syncs
  const drawnAt = new Date().toISOString(); // to the millisecond, as a draw recorded online
  // A refusal (the card withdrawn meanwhile) loses only a history line.
  send('POST', HISTORY, { card_id: card.id, drawn_at: drawnAt }, { label: `the draw “${card.strategy}”`, scope: SCOPE }).catch(() => {});
}

/** Offline: a uniformly random card from the chosen set, out of the deck held in memory. */
async function drawLocally() {
  let deck = [];
  if (settings.source !== 'mine') {
    try {
      deck = await loadDeck();
    } catch {
      return null;
    }
  }
  const random = new Uint32Array(1);
  crypto.getRandomValues(random);
  return pickFrom(drawPool(deck, state.mine, settings), random[0]);
}

// ---------- Share ----------

async function shareCard() {
  const card = state.card;
  if (!card) return;
  const own = card.edition === 0; // own cards are private: share their words, not a link
  const url = `${location.origin}/strategies/${card.id}`;
  const data = own ? { title: 'Oblique Strategies', text: card.strategy } : { title: 'Oblique Strategies', text: card.strategy, url };
  if (typeof navigator.share === 'function' && (typeof navigator.canShare !== 'function' || navigator.canShare(data))) {
    try {
      await navigator.share(data);
      return;
    } catch (error) {
      if (error && error.name === 'AbortError') return; // the person closed the share sheet
    }
  }
  const copied = await copyText(own ? card.strategy : url, ui.share);
  if (copied) toast(own ? 'Card copied' : 'Link copied');
  else toast(own ? card.strategy : `Copy this link: ${url}`, { timeout: 10000 });
}

// ---------- A card by its URL ----------

/** The draw view with card `id` ('#card/<id>'): a card this profile may see, else the prompt. */
export async function openCard(id) {
  const view = router.view;
  // A card written on this device and not on the server yet is known from the device's copy of the own cards.
  if (typeof id !== 'number' && !findKnownCard(id)) await loadMine().catch(() => {});
  if (router.view !== view) return;
  const known = findKnownCard(id);
  if (known) {
    if (!state.card || state.card.id !== id) showCard(known, 'link');
    return;
  }
  try {
    if (typeof id !== 'number') throw Object.assign(new Error('That card could not be found.'), { status: 404 });
    const card = await api('GET', `${API}/${id}`);
    if (router.view === view) showCard(card, 'link');
  } catch (error) {
    if (router.view !== view) return;
    if (isNetworkError(error)) {
      try {
        await loadDeck();
      } catch {
        // fall through to the message below
      }
      const card = findKnownCard(id);
      if (card) {
        showCard(card, 'link');
        return;
      }
    }
    toast(error.status === 404 ? 'That card could not be found.' : error.message);
    if (error.status === 404) router.go('', { replace: true });
  }
}

/** Shows a card chosen in a list on the draw view (a new history entry). */
export function pick(card) {
  state.known.set(card.id, card);
  if (state.card && state.card.id === card.id) showCard(card, 'pick'); // the same URL: show it afresh
  router.go(viewPath('card', card.id));
  ui.draw.focus();
}

export async function openCardByID(id) {
  try {
    pick(await api('GET', `${API}/${id}`));
  } catch (error) {
    toast(error.message);
  }
}

ui.draw.addEventListener('click', () => drawCard());
ui.share.addEventListener('click', () => shareCard());
ui.shuffleReset.addEventListener('click', () => resetShuffle());
for (const control of [ui.source, ui.edition, ui.shuffle]) control.addEventListener('change', onSettingsChange);
