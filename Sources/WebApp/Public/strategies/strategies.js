// Oblique Strategies: draw a card, browse the deck, keep favourites, write your own cards.
// The page works from the API under /api/v1/strategies. The published deck is fetched after the
// first paint and kept in memory, so a draw still works when the network is gone, and favourite
// changes made offline wait in localStorage until the connection is back.
import { api, toast, undoable } from '../js/api.js';
import { createRouter, parseView, viewPath } from '../js/router.js';
import { formatDateTime } from '../js/time.js';

const API = '/api/v1/strategies';
const SETTINGS_KEY = 'trove.strategies.settings';
const PENDING_KEY = 'trove.strategies.pendingFavourites';
const PROMPT = 'Tap for an Oblique Strategy';
const MAX_LENGTH = 280;
const NOTE_MAX = 500;
const VIEWS = ['draw', 'all', 'favourites', 'today', 'mine', 'popular', 'history'];
const MORE = ['today', 'mine', 'popular', 'history']; // behind "More" on a phone

const $ = (id) => document.getElementById(id);

const ui = {
  draw: $('draw'),
  text: $('card-text'),
  meta: $('card-meta'),
  announce: $('announce'),
  offline: $('offline-note'),
  syncNote: $('sync-note'),
  favAdd: $('fav-add'),
  favRemove: $('fav-remove'),
  cardFav: $('card-fav'),
  tabs: document.querySelector('.os-tabs'),
  more: $('tab-more'),
  moreLabel: $('tab-more-label'),
  share: $('share'),
  settings: $('settings'),
  settingsSummary: $('settings-summary'),
  source: $('source'),
  edition: $('edition'),
  shuffle: $('shuffle'),
  shuffleRow: $('shuffle-row'),
  shuffleStatus: $('shuffle-status'),
  shuffleReset: $('shuffle-reset'),
  search: $('search'),
  allCount: $('all-count'),
  allList: $('all-list'),
  favList: $('favourites-list'),
  favEmpty: $('favourites-empty'),
  todayText: $('today-text'),
  todayMeta: $('today-meta'),
  todayShow: $('today-show'),
  mineForm: $('mine-form'),
  mineText: $('mine-text'),
  mineCount: $('mine-count'),
  mineError: $('mine-error'),
  mineList: $('mine-list'),
  mineEmpty: $('mine-empty'),
  popularList: $('popular-list'),
  popularEmpty: $('popular-empty'),
  historyList: $('history-list'),
  historyEmpty: $('history-empty'),
  confirm: $('confirm-dialog'),
  confirmText: $('confirm-text'),
};

const state = {
  view: 'draw',
  card: null, // the card on the draw view
  deck: null, // published cards, once loaded
  deckByID: new Map(),
  known: new Map(), // id → card, for every card shown in a list
  deckLoading: null,
  labels: new Map(), // edition number → label
  mine: null, // own cards, once loaded
  favourites: null, // favourite cards, newest first, once loaded
  favIDs: new Set(),
  favKnown: false, // until the favourites are loaded, neither button can tell which fits
  favChanges: new Map(), // id → { on, seq }: changes made here, replayed over a list fetched meanwhile
  favSeq: 0,
  favQueue: Promise.resolve(),
  today: null,
  drawing: false,
  allIndex: [], // { li, key, group } for the All view's filter
  allBuilt: false,
};

// ---------- Small helpers ----------

/** Case- and accent-insensitive form of a text, for searching. */
function fold(text) {
  return String(text).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

const segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/** Characters as a person counts them (grapheme clusters), like the server. */
function characterCount(text) {
  if (segmenter) {
    let count = 0;
    for (const _ of segmenter.segment(text)) count += 1;
    return count;
  }
  return [...text].length;
}

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function editionLabel(edition) {
  if (edition === 0) return 'My cards';
  return state.labels.get(edition) || `Edition ${edition}`;
}

function metaFor(card) {
  if (card.edition === 0) return 'My card';
  return `${editionLabel(card.edition)} · card ${card.cardnumber}`;
}

function make(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'className') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key in node && typeof value !== 'string') node[key] = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/** A polite message for screen readers, for changes the page already shows (no toast to cover the buttons). */
function say(message) {
  ui.announce.textContent = '';
  setTimeout(() => {
    ui.announce.textContent = message;
  }, 50);
}

function whenIdle(callback) {
  if ('requestIdleCallback' in window) window.requestIdleCallback(callback, { timeout: 1500 });
  else setTimeout(callback, 200);
}

function isNetworkError(error) {
  return error && error.status === 0;
}

function findKnownCard(id) {
  if (state.deckByID.has(id)) return state.deckByID.get(id);
  if (state.known.has(id)) return state.known.get(id);
  const lists = [state.mine, state.favourites, state.card ? [state.card] : null, state.today ? [state.today] : null];
  for (const list of lists) {
    const found = list && list.find((card) => card.id === id);
    if (found) return found;
  }
  return null;
}

// ---------- Settings ----------

const settings = { source: 'published', edition: '', shuffle: false };

function loadSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}') || {};
  } catch {
    saved = {};
  }
  if (['published', 'mine', 'all'].includes(saved.source)) settings.source = saved.source;
  const editions = [...ui.edition.options].map((option) => option.value);
  if (typeof saved.edition === 'string' && editions.includes(saved.edition)) settings.edition = saved.edition;
  settings.shuffle = saved.shuffle === true;
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

function reflectSettings() {
  ui.edition.disabled = settings.source === 'mine';
  const parts = [];
  if (settings.source === 'mine') parts.push('My cards');
  if (settings.source === 'all') parts.push('Published and mine');
  if (settings.edition && settings.source !== 'mine') parts.push(editionLabel(Number(settings.edition)));
  if (settings.shuffle) parts.push('Shuffle');
  ui.settingsSummary.textContent = parts.length ? `· ${parts.join(' · ')}` : '';
  ui.shuffleRow.hidden = !settings.shuffle;
}

function drawQuery() {
  const params = new URLSearchParams({ source: settings.source });
  if (settings.edition && settings.source !== 'mine') params.set('edition', settings.edition);
  return `?${params}`;
}

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
  ui.shuffleStatus.textContent = result.total === 0
    ? 'No cards to shuffle'
    : `${result.remaining} of ${plural(result.total, 'card')} left`;
}

async function refreshShuffle() {
  try {
    showShuffle(await api('GET', `${API}/shuffle${drawQuery()}`));
  } catch (error) {
    ui.shuffleStatus.textContent = isNetworkError(error) ? 'Shuffle unavailable offline' : error.message;
  }
}

async function resetShuffle() {
  ui.shuffleReset.disabled = true;
  try {
    await api('DELETE', `${API}/shuffle`);
    const result = await api('GET', `${API}/shuffle${drawQuery()}`);
    showShuffle(result);
    toast(`Reshuffled: all ${plural(result.total, 'card')} are back.`);
  } catch (error) {
    toast(error.message);
  } finally {
    ui.shuffleReset.disabled = false;
  }
}

// ---------- The card on the draw view ----------

function showCard(card, how = 'draw') {
  state.card = card;
  ui.draw.classList.remove('is-prompt');
  ui.text.classList.remove('is-new');
  ui.text.textContent = card.strategy;
  void ui.text.offsetWidth; // restart the fade
  ui.text.classList.add('is-new');
  ui.meta.textContent = metaFor(card);
  ui.announce.textContent = `${card.strategy}. ${metaFor(card)}.`;
  ui.offline.hidden = how !== 'offline';
  // A draw refines the draw view: its card goes into the URL without a new history entry.
  if (how === 'draw' || how === 'offline') router.go(viewPath('card', card.id), { replace: true, quiet: true });
  updateCardButtons();
}

function showPrompt() {
  state.card = null;
  ui.draw.classList.add('is-prompt');
  ui.text.textContent = PROMPT;
  ui.meta.textContent = '';
  updateCardButtons();
}

/** Add and remove are never both enabled: neither before a card is shown, then only the one that fits. */
function updateCardButtons() {
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

function emptyDeckMessage(error) {
  if (settings.source === 'mine') return 'You have no cards of your own yet. Write one under “Mine”.';
  return error.message || 'There are no cards to draw from with these settings.';
}

async function drawCard() {
  if (state.drawing) return;
  if (settings.source === 'mine' && state.mine && state.mine.length === 0) {
    toast(emptyDeckMessage({}));
    return;
  }
  state.drawing = true;
  ui.draw.setAttribute('aria-busy', 'true');
  try {
    if (settings.shuffle) {
      const result = await api('POST', `${API}/shuffle/draw${drawQuery()}`);
      showCard(result.card);
      showShuffle(result);
      if (result.reshuffled) toast('Every card had been drawn, so the deck was shuffled again.');
    } else {
      showCard(await api('POST', `${API}/random${drawQuery()}`)); // POST: a draw is recorded in the history
    }
  } catch (error) {
    if (isNetworkError(error)) {
      const card = await drawLocally();
      if (card) showCard(card, 'offline');
      else toast(error.message);
    } else if (error.code === 'empty_deck') {
      toast(emptyDeckMessage(error));
    } else {
      toast(error.message);
    }
  } finally {
    state.drawing = false;
    ui.draw.removeAttribute('aria-busy');
  }
}

/** Offline: a uniformly random card from the chosen set, out of the deck held in memory. */
async function drawLocally() {
  let pool = [];
  if (settings.source !== 'mine') {
    try {
      await loadDeck();
    } catch {
      return null;
    }
    const edition = Number(settings.edition);
    pool = settings.edition ? state.deck.filter((card) => card.edition === edition) : state.deck.slice();
  }
  if (settings.source !== 'published' && state.mine) pool = pool.concat(state.mine);
  if (pool.length === 0) return null;
  const random = new Uint32Array(1);
  crypto.getRandomValues(random);
  return pool[Math.floor((random[0] / 2 ** 32) * pool.length)];
}

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
  const copied = await copyText(own ? card.strategy : url);
  if (copied) toast(own ? 'Card copied' : 'Link copied');
  else toast(own ? card.strategy : `Copy this link: ${url}`, { timeout: 10000 });
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = make('textarea', { className: 'visually-hidden', readonly: true, 'aria-hidden': 'true' });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    ui.share.focus();
    return ok;
  }
}

// ---------- Favourites ----------

function readPending() {
  try {
    const value = JSON.parse(localStorage.getItem(PENDING_KEY) || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function writePending(map) {
  try {
    if (Object.keys(map).length) localStorage.setItem(PENDING_KEY, JSON.stringify(map));
    else localStorage.removeItem(PENDING_KEY);
  } catch {
    // Storage unavailable: the change is lost with the page, as a failed request would be.
  }
}

function setPending(id, on) {
  const map = readPending();
  map[id] = on;
  writePending(map);
}

/** Forgets a queued change once the server has it, unless a newer one replaced it meanwhile. */
function clearPending(id, on) {
  const map = readPending();
  if (String(id) in map && (on === undefined || map[id] === on)) {
    delete map[id];
    writePending(map);
  }
}

const leavingFavourites = new Set(); // ids removed from the list whose Undo has not run out (not sent yet)
const favouriteRemovals = new Map(); // id → its undoable removal

function applyFavourite(card, on) {
  if (on) state.favIDs.add(card.id);
  else state.favIDs.delete(card.id);
  if (state.favourites) {
    state.favourites = state.favourites.filter((item) => item.id !== card.id);
    if (on) state.favourites.unshift(card);
  }
  updateCardButtons();
  if (state.view === 'favourites') renderFavourites();
}

function sendFavourite(id, on) {
  const task = state.favQueue.then(() => api(on ? 'PUT' : 'DELETE', `${API}/${id}/favourite`));
  state.favQueue = task.catch(() => {});
  return task;
}

async function setFavourite(card, on) {
  if (!card) return;
  // Favourited again while its removal waits for the Undo to run out: that is the Undo; removed again
  // (from the card): the removal goes now.
  const waiting = favouriteRemovals.get(card.id);
  if (waiting && leavingFavourites.has(card.id)) {
    if (on) waiting.undo();
    else waiting.commit();
    return;
  }
  state.favSeq += 1;
  state.favChanges.set(card.id, { on, seq: state.favSeq });
  applyFavourite(card, on);
  try {
    await sendFavourite(card.id, on);
    clearPending(card.id);
    say(on ? 'Added to favourites' : 'Removed from favourites');
  } catch (error) {
    if (isNetworkError(error)) {
      setPending(card.id, on);
      ui.syncNote.hidden = false;
    } else if (error.status === 404) {
      applyFavourite(card, false);
      toast(error.message);
    } else {
      applyFavourite(card, !on);
      toast(error.message);
    }
  }
}

/**
 * Removes a favourite from the Favourites list at once, with an Undo in the toast. The DELETE waits until the
 * Undo runs out (or the page is left: then it is sent with keepalive and queued here as well, in case it
 * does not arrive), so Undo puts the card back in its place in the list, on the server too, untouched.
 */
function removeFavourite(card) {
  const at = state.favourites ? state.favourites.findIndex((item) => item.id === card.id) : -1;
  leavingFavourites.add(card.id);
  state.favSeq += 1;
  state.favChanges.set(card.id, { on: false, seq: state.favSeq });
  applyFavourite(card, false);
  const putBack = () => {
    leavingFavourites.delete(card.id);
    state.favSeq += 1;
    state.favChanges.set(card.id, { on: true, seq: state.favSeq });
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
    commit: async ({ keepalive }) => {
      leavingFavourites.delete(card.id);
      favouriteRemovals.delete(card.id);
      // A list fetched while the DELETE is on its way must not bring the card back.
      state.favSeq += 1;
      state.favChanges.set(card.id, { on: false, seq: state.favSeq });
      if (keepalive) setPending(card.id, false); // in case the page goes before the answer
      try {
        await (keepalive ? api('DELETE', `${API}/${card.id}/favourite`, undefined, { keepalive }) : sendFavourite(card.id, false));
        clearPending(card.id, false);
      } catch (error) {
        if (isNetworkError(error)) {
          setPending(card.id, false);
          ui.syncNote.hidden = false;
        } else if (error.status !== 404 && !keepalive) {
          putBack();
          toast(error.message);
        }
      }
    },
  });
  favouriteRemovals.set(card.id, removal);
}

/** Sends the favourite changes queued offline (PUT and DELETE are idempotent, so resending is safe). */
async function flushPending() {
  for (const [id, on] of Object.entries(readPending())) {
    try {
      await sendFavourite(id, on);
      clearPending(id, on);
    } catch (error) {
      if (isNetworkError(error)) {
        ui.syncNote.hidden = false;
        return;
      }
      if (error.status < 500) clearPending(id, on); // the card is gone or refused: nothing to retry
    }
  }
  ui.syncNote.hidden = Object.keys(readPending()).length === 0;
}

async function loadFavourites() {
  const since = state.favSeq;
  const cards = await api('GET', `${API}/favourites`);
  const byID = new Map(cards.map((card) => [card.id, card]));
  const ids = new Set(byID.keys());
  for (const [id, on] of Object.entries(readPending())) {
    if (on) ids.add(Number(id));
    else ids.delete(Number(id));
  }
  for (const id of leavingFavourites) ids.delete(id);
  for (const [id, change] of state.favChanges) {
    if (change.seq > since) {
      if (change.on) ids.add(id);
      else ids.delete(id);
    }
  }
  const list = cards.filter((card) => ids.has(card.id));
  for (const id of ids) {
    if (!byID.has(id)) {
      const card = findKnownCard(id);
      if (card) list.unshift(card);
    }
  }
  state.favIDs = ids;
  state.favourites = list;
  state.favKnown = true;
  updateCardButtons();
  if (state.view === 'favourites') renderFavourites();
}

function renderFavourites() {
  const list = state.favourites || [];
  ui.favEmpty.hidden = list.length > 0;
  ui.favEmpty.textContent = 'No favourites yet. Draw a card and choose “Add to favourites” to keep it here.';
  ui.favList.replaceChildren(...list.map((card) => make('li', { className: 'os-row' },
    cardButton(card),
    make('button', {
      type: 'button', className: 'button os-remove', text: 'Remove',
      'aria-label': `Remove “${card.strategy}” from favourites`, dataset: { remove: card.id },
    }),
  )));
}

function cardButton(card, extra) {
  state.known.set(card.id, card);
  return make('button', { type: 'button', className: 'os-item', dataset: { id: card.id } },
    make('span', { text: card.strategy }),
    make('span', { className: 'os-item-meta', text: extra || metaFor(card) }),
  );
}

// ---------- Loading ----------

function loadDeck() {
  if (state.deck) return Promise.resolve(state.deck);
  if (!state.deckLoading) {
    state.deckLoading = api('GET', API).then((cards) => {
      state.deck = cards;
      state.deckByID = new Map(cards.map((card) => [card.id, card]));
      return cards;
    }).finally(() => {
      state.deckLoading = null;
    });
  }
  return state.deckLoading;
}

async function loadEditions() {
  for (const option of ui.edition.options) {
    if (option.value) state.labels.set(Number(option.value), option.textContent.trim());
  }
  try {
    const sections = await api('GET', `${API}/editions`);
    for (const section of sections) state.labels.set(section.edition, section.label);
    // The labels name each edition with its year: the draw settings say the same.
    for (const option of ui.edition.options) {
      const label = option.value && state.labels.get(Number(option.value));
      if (label) option.textContent = label;
    }
  } catch {
    // The labels from the page are enough.
  }
}

async function loadMine() {
  const cards = await api('GET', `${API}/mine`);
  state.mine = cards.slice().sort((a, b) => b.id - a.id);
  return state.mine;
}

// ---------- Views ----------

// Each view is a URL (js/router.js): '' is the draw view with the prompt, 'card/<id>' the draw view
// with that card, 'all' (with ?q= for its search), 'favourites', 'today', 'mine', 'popular', 'history'.
// Tabs and choosing a card push a history entry; a draw and typing a search replace it.
const router = createRouter({ onView: route });

/** The URL of a tab as it is now: the draw tab keeps its card, All its search. */
function viewFor(name) {
  if (name === 'draw') return state.card ? viewPath('card', state.card.id) : '';
  if (name === 'all') return viewPath('all', { q: ui.search.value.trim() });
  return name;
}

function goTo(name) {
  setMenu(false);
  router.go(viewFor(name));
}

function route(view) {
  const { name, args, query } = parseView(view);
  const legacy = /^card-(\d+)$/.exec(name); // the links of before: #card-12
  if (legacy) {
    router.go(viewPath('card', legacy[1]), { replace: true });
  } else if (name === 'card' && /^\d+$/.test(args[0] || '')) {
    showView('draw');
    openCard(Number(args[0]));
  } else if (VIEWS.includes(name)) {
    if (name === 'all' && (query.q || '') !== ui.search.value.trim()) {
      ui.search.value = query.q || '';
      filterAll();
    }
    showView(name);
  } else {
    if (state.card) showPrompt();
    showView('draw');
  }
}

function setMenu(open) {
  ui.tabs.classList.toggle('is-open', open);
  ui.more.setAttribute('aria-expanded', String(open));
}

function showView(name) {
  if (!VIEWS.includes(name)) return;
  state.view = name;
  for (const view of VIEWS) {
    const on = view === name;
    $(`tab-${view}`).setAttribute('aria-pressed', String(on));
    $(`view-${view}`).hidden = !on;
  }
  // "More" is named after the view it holds, when that one is shown.
  const inMore = MORE.includes(name);
  ui.more.classList.toggle('is-current', inMore);
  ui.moreLabel.textContent = inMore ? $(`tab-${name}`).textContent : 'More';
  const enter = {
    all: enterAll, favourites: enterFavourites, today: enterToday,
    mine: enterMine, popular: enterPopular, history: enterHistory,
  }[name];
  if (enter) enter();
}

function pick(card) {
  state.known.set(card.id, card);
  if (state.card && state.card.id === card.id) showCard(card, 'pick'); // the same URL: show it afresh
  router.go(viewPath('card', card.id));
  ui.draw.focus();
}

// All

async function enterAll() {
  if (state.allBuilt) return;
  try {
    await Promise.all([loadDeck(), ready]);
    if (state.allBuilt) return;
    buildAll();
  } catch (error) {
    ui.allCount.textContent = isNetworkError(error) ? 'The cards cannot be loaded while offline.' : error.message;
  }
}

/** Texts that differ only in case, accents or punctuation are the same card in several editions. */
const sameText = (text) => fold(text).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** All: one row per text, under the edition it first appeared in, naming every edition that has it. */
function buildAll() {
  const texts = new Map(); // same text → its cards, in deck order
  for (const card of state.deck) {
    const key = sameText(card.strategy);
    if (!texts.has(key)) texts.set(key, []);
    texts.get(key).push(card);
  }
  const groups = new Map(); // first edition → its texts' cards
  for (const cards of texts.values()) {
    const first = cards[0].edition;
    if (!groups.has(first)) groups.set(first, []);
    groups.get(first).push(cards);
  }
  state.allIndex = [];
  const sections = [];
  for (const [edition, rows] of groups) {
    const headingID = `all-edition-${edition}`;
    const list = make('ul', { className: 'os-list' });
    const section = make('section', { className: 'os-group', 'aria-labelledby': headingID },
      make('h3', { id: headingID, text: editionLabel(edition) }), list);
    for (const cards of rows) {
      const [card] = cards;
      const editions = [...new Set(cards.map((item) => item.edition))];
      const li = make('li', {}, make('button', { type: 'button', className: 'os-item', dataset: { id: card.id } },
        make('span', { className: 'os-item-text', text: card.strategy }),
        editions.length > 1 ? make('span', { className: 'os-item-meta', text: `In ${editions.map(editionLabel).join(', ')}` }) : null));
      list.append(li);
      state.allIndex.push({ li, key: fold(card.strategy), section });
    }
    sections.push(section);
  }
  ui.allList.replaceChildren(...sections);
  state.allBuilt = true;
  filterAll();
}

function filterAll() {
  if (!state.allBuilt) return;
  const query = fold(ui.search.value.trim());
  let shown = 0;
  const visibleSections = new Set();
  for (const entry of state.allIndex) {
    const match = !query || entry.key.includes(query);
    entry.li.hidden = !match;
    if (match) {
      shown += 1;
      visibleSections.add(entry.section);
    }
  }
  for (const section of ui.allList.children) section.hidden = !visibleSections.has(section);
  const total = state.allIndex.length;
  if (!query) ui.allCount.textContent = plural(total, 'card');
  else if (shown === 0) ui.allCount.textContent = `No card matches “${ui.search.value.trim()}”`;
  else ui.allCount.textContent = `${shown} of ${plural(total, 'card')} match`;
}

// Favourites

async function enterFavourites() {
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

// Today

async function enterToday() {
  try {
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    const card = await api('GET', `${API}/today?${new URLSearchParams({ tz: timeZone })}`);
    state.today = card;
    ui.todayText.textContent = card.strategy;
    ui.todayMeta.textContent = metaFor(card);
    ui.todayShow.disabled = false;
  } catch (error) {
    ui.todayText.textContent = isNetworkError(error) ? 'The card of the day needs a connection.' : error.message;
  }
}

// Mine

function countText(text) {
  const n = characterCount(text.trim());
  return { n, label: n > MAX_LENGTH ? `${n} of ${MAX_LENGTH} characters: ${n - MAX_LENGTH} too many` : `${n} of ${MAX_LENGTH} characters` };
}

function updateCounter(textarea, counter) {
  const { n, label } = countText(textarea.value);
  counter.textContent = label;
  counter.classList.toggle('is-over', n > MAX_LENGTH);
  if (n > MAX_LENGTH) textarea.setAttribute('aria-invalid', 'true');
  else textarea.removeAttribute('aria-invalid');
}

function validate(text) {
  const n = characterCount(text);
  if (n === 0) return 'Write a few words first.';
  if (n > MAX_LENGTH) return `A card holds at most ${MAX_LENGTH} characters; this one has ${n}.`;
  return '';
}

async function enterMine() {
  try {
    await loadMine();
    renderMine();
  } catch (error) {
    ui.mineEmpty.hidden = false;
    ui.mineEmpty.textContent = isNetworkError(error) ? 'Your cards cannot be loaded while offline.' : error.message;
  }
}

function renderMine() {
  const cards = state.mine || [];
  ui.mineEmpty.hidden = cards.length > 0;
  ui.mineEmpty.textContent = 'You have not written any cards yet.';
  // Showing the tab fetches the cards again while the list drawn before is on screen: draw it again only when
  // the cards differ from what it shows, or each visit swaps the buttons under a finger for identical new ones.
  const shown = [...ui.mineList.children].map((li) => [Number(li.dataset.mine), li.querySelector('.os-mine-text')?.textContent]);
  if (JSON.stringify(shown) === JSON.stringify(cards.map((card) => [card.id, card.strategy]))) return;
  ui.mineList.replaceChildren(...cards.map(mineItem));
}

function mineItem(card) {
  return make('li', { className: 'os-mine-item', dataset: { mine: card.id } },
    make('p', { className: 'os-mine-text', text: card.strategy }),
    make('div', { className: 'os-actions' },
      make('button', { type: 'button', className: 'button', dataset: { action: 'show' }, text: 'Show', 'aria-label': `Show “${card.strategy}”` }),
      make('button', { type: 'button', className: 'button', dataset: { action: 'edit' }, text: 'Edit', 'aria-label': `Edit “${card.strategy}”` }),
      make('button', { type: 'button', className: 'button danger', dataset: { action: 'delete' }, text: 'Delete', 'aria-label': `Delete “${card.strategy}”` }),
    ),
  );
}

function editForm(card) {
  const id = `edit-${card.id}`;
  const textarea = make('textarea', { id, rows: 3, 'aria-describedby': `${id}-count` });
  textarea.value = card.strategy;
  const counter = make('p', { className: 'hint os-counter', id: `${id}-count` });
  const error = make('p', { className: 'form-error', role: 'alert' });
  const form = make('form', { className: 'os-edit', novalidate: true },
    make('div', { className: 'field' }, make('label', { for: id, text: 'Edit your card' }), textarea, counter),
    error,
    make('div', { className: 'os-actions' },
      make('button', { type: 'submit', className: 'button primary', text: 'Save' }),
      make('button', { type: 'button', className: 'button', dataset: { action: 'cancel' }, text: 'Cancel' }),
    ),
  );
  updateCounter(textarea, counter);
  textarea.addEventListener('input', () => updateCounter(textarea, counter));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = textarea.value.trim();
    const problem = validate(text);
    error.textContent = problem;
    if (problem) {
      textarea.focus();
      return;
    }
    form.setAttribute('aria-busy', 'true');
    try {
      const saved = await api('PATCH', `${API}/mine/${card.id}`, { strategy: text });
      state.mine = state.mine.map((item) => (item.id === saved.id ? saved : item));
      replaceEverywhere(saved);
      const li = mineItem(saved);
      form.closest('li').replaceWith(li);
      li.querySelector('[data-action="edit"]').focus();
      say('Card saved');
    } catch (failure) {
      error.textContent = failure.message;
      form.removeAttribute('aria-busy');
    }
  });
  return form;
}

function replaceEverywhere(card) {
  if (state.card && state.card.id === card.id) showCard(card, 'pick');
  if (state.favourites) state.favourites = state.favourites.map((item) => (item.id === card.id ? card : item));
}

function confirmDelete(card) {
  return new Promise((resolve) => {
    const dialog = ui.confirm;
    if (!dialog || typeof dialog.showModal !== 'function') {
      resolve(window.confirm(`Delete “${card.strategy}”? This cannot be undone.`));
      return;
    }
    ui.confirmText.textContent = `“${card.strategy}” will be gone for good.`;
    dialog.returnValue = '';
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    dialog.showModal();
  });
}

async function deleteMine(card, li) {
  if (!(await confirmDelete(card))) {
    li.querySelector('[data-action="delete"]')?.focus();
    return;
  }
  try {
    await api('DELETE', `${API}/mine/${card.id}`);
    const index = state.mine.findIndex((item) => item.id === card.id);
    state.mine = state.mine.filter((item) => item.id !== card.id);
    state.favIDs.delete(card.id);
    if (state.favourites) state.favourites = state.favourites.filter((item) => item.id !== card.id);
    renderMine();
    if (state.card && state.card.id === card.id) showPrompt();
    updateCardButtons();
    const next = ui.mineList.children[Math.min(index, ui.mineList.children.length - 1)];
    (next ? next.querySelector('[data-action="delete"]') : ui.mineText).focus();
    say('Card deleted');
  } catch (error) {
    ui.mineError.textContent = error.message;
  }
}

async function addMine(event) {
  event.preventDefault();
  const text = ui.mineText.value.trim();
  const problem = validate(text);
  ui.mineError.textContent = problem;
  if (problem) {
    ui.mineText.setAttribute('aria-invalid', 'true');
    ui.mineText.focus();
    return;
  }
  const button = $('mine-add');
  button.disabled = true;
  try {
    const card = await api('POST', `${API}/mine`, { strategy: text });
    state.mine = [card, ...(state.mine || []).filter((item) => item.id !== card.id)];
    ui.mineText.value = '';
    updateCounter(ui.mineText, ui.mineCount);
    renderMine();
    say('Card added');
  } catch (error) {
    ui.mineError.textContent = error.message;
    if (error.status === 422) ui.mineText.setAttribute('aria-invalid', 'true');
  } finally {
    button.disabled = false;
  }
}

// Popular

async function enterPopular() {
  try {
    const ranking = await api('GET', `${API}/popular`);
    ui.popularEmpty.hidden = ranking.length > 0;
    ui.popularList.replaceChildren(...ranking.map(({ card, favourites }) => make('li', {},
      cardButton(card, `${metaFor(card)} · ${plural(favourites, 'favourite')}`))));
  } catch (error) {
    ui.popularEmpty.hidden = false;
    ui.popularEmpty.textContent = isNetworkError(error) ? 'The ranking needs a connection.' : error.message;
  }
}

// History


async function enterHistory() {
  try {
    const entries = await api('GET', `${API}/history`);
    ui.historyEmpty.hidden = entries.length > 0;
    ui.historyEmpty.textContent = 'Nothing drawn yet.';
    ui.historyList.replaceChildren(...entries.map(historyItem));
  } catch (error) {
    ui.historyEmpty.hidden = false;
    ui.historyEmpty.textContent = isNetworkError(error) ? 'Your history needs a connection.' : error.message;
  }
}

function historyItem(entry) {
  const id = `note-${entry.id}`;
  const input = make('input', { type: 'text', id, name: 'note', maxlength: String(NOTE_MAX), autocomplete: 'off' });
  input.value = entry.note || '';
  const error = make('p', { className: 'form-error', role: 'alert' });
  const status = make('span', { className: 'os-muted os-saved', role: 'status' });
  const form = make('form', { className: 'os-note', novalidate: true },
    make('div', { className: 'field' }, make('label', { for: id, text: 'Note' }), input),
    make('button', { type: 'submit', className: 'button', text: 'Save note', 'aria-label': `Save note for “${entry.card.strategy}”` }),
    status,
    error,
  );
  input.addEventListener('input', () => {
    status.textContent = '';
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const note = input.value.trim();
    if (characterCount(note) > NOTE_MAX) {
      error.textContent = `A note holds at most ${NOTE_MAX} characters.`;
      return;
    }
    error.textContent = '';
    try {
      const saved = await api('PATCH', `${API}/history/${entry.id}`, { note: note || null });
      input.value = (saved && saved.note) || '';
      status.textContent = note ? 'Saved' : 'Note removed';
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  return make('li', {},
    make('time', { className: 'os-muted', datetime: entry.drawnAt, text: formatDateTime(entry.drawnAt) }),
    cardButton(entry.card),
    form,
  );
}

// ---------- Deep links ----------

/** The draw view with card `id` ('#card/<id>'): a card this profile may see, else the prompt. */
async function openCard(id) {
  const view = router.view;
  const known = findKnownCard(id);
  if (known) {
    if (!state.card || state.card.id !== id) showCard(known, 'link');
    return;
  }
  try {
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

// ---------- Offline ----------

// Whether this page load went through the service worker (and so was cached as it loaded). Read now:
// the worker may claim the page later in this same visit, after its requests went past it.
const controlledAtLoad = 'serviceWorker' in navigator && Boolean(navigator.serviceWorker.controller);

/** First visit, before the service worker controlled the page: ask it to keep this page and its data. */
function keepForOffline() {
  if (!('serviceWorker' in navigator) || controlledAtLoad) return;
  const urls = [
    location.pathname,
    ...[...document.querySelectorAll('link[rel="stylesheet"], script[src]')].map((node) => node.href || node.src),
    new URL('../js/api.js', import.meta.url).href,
    new URL('../js/router.js', import.meta.url).href,
    API,
    `${API}/editions`,
  ];
  navigator.serviceWorker.ready
    .then((registration) => registration.active && registration.active.postMessage({ type: 'trove:keep', urls }))
    .catch(() => {});
}

// ---------- Wiring ----------

showPrompt();

ui.draw.addEventListener('click', () => drawCard());
ui.favAdd.addEventListener('click', () => setFavourite(state.card, true));
ui.favRemove.addEventListener('click', () => setFavourite(state.card, false));
ui.share.addEventListener('click', () => shareCard());
ui.shuffleReset.addEventListener('click', () => resetShuffle());
for (const control of [ui.source, ui.edition, ui.shuffle]) control.addEventListener('change', onSettingsChange);

for (const view of VIEWS) $(`tab-${view}`).addEventListener('click', () => goTo(view));
ui.more.addEventListener('click', () => {
  const open = !ui.tabs.classList.contains('is-open');
  setMenu(open);
  if (open) $(`tab-${MORE.includes(state.view) ? state.view : MORE[0]}`).focus();
});
document.addEventListener('click', (event) => {
  if (!ui.tabs.contains(event.target)) setMenu(false);
});
ui.tabs.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && ui.tabs.classList.contains('is-open')) {
    event.preventDefault();
    setMenu(false);
    ui.more.focus();
  }
});

ui.search.addEventListener('input', () => {
  filterAll();
  router.go(viewFor('all'), { replace: true, quiet: true }); // a search refines All: no new entry
});

// Lists: choosing a card shows it on the draw view.
for (const list of [ui.allList, ui.favList, ui.popularList, ui.historyList]) {
  list.addEventListener('click', (event) => {
    const remove = event.target.closest('[data-remove]');
    if (remove) {
      const id = Number(remove.dataset.remove);
      const card = findKnownCard(id);
      const index = [...ui.favList.querySelectorAll('[data-remove]')].indexOf(remove);
      if (card) removeFavourite(card);
      const buttons = ui.favList.querySelectorAll('[data-remove]');
      const next = buttons[Math.min(index, buttons.length - 1)];
      (next || $('favourites-heading')).focus();
      return;
    }
    const item = event.target.closest('.os-item[data-id]');
    if (!item) return;
    const card = findKnownCard(Number(item.dataset.id));
    if (card) pick(card);
    else openCardByID(Number(item.dataset.id));
  });
}

async function openCardByID(id) {
  try {
    pick(await api('GET', `${API}/${id}`));
  } catch (error) {
    toast(error.message);
  }
}

ui.todayShow.addEventListener('click', () => state.today && pick(state.today));

ui.mineForm.addEventListener('submit', addMine);
ui.mineText.addEventListener('input', () => {
  updateCounter(ui.mineText, ui.mineCount);
  if (ui.mineError.textContent && !validate(ui.mineText.value.trim())) ui.mineError.textContent = '';
});
ui.mineList.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-action]');
  if (!button) return;
  const li = button.closest('li[data-mine]');
  const card = (state.mine || []).find((item) => item.id === Number(li.dataset.mine));
  if (!card) return;
  const action = button.dataset.action;
  if (action === 'show') pick(card);
  else if (action === 'delete') deleteMine(card, li);
  else if (action === 'edit') {
    const form = editForm(card);
    li.replaceChildren(form);
    form.querySelector('textarea').focus();
  } else if (action === 'cancel') {
    const fresh = mineItem(card);
    li.replaceWith(fresh);
    fresh.querySelector('[data-action="edit"]').focus();
  }
});

$('favourites-heading').setAttribute('tabindex', '-1');

document.addEventListener('keydown', (event) => {
  if (event.defaultPrevented || event.repeat || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
  const target = event.target instanceof Element ? event.target : document.body;
  if (target.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])')) return;
  if (document.querySelector('dialog[open]')) return;
  const key = event.key;
  if (key === '/') {
    event.preventDefault();
    goTo('all');
    ui.search.focus();
    ui.search.select();
  } else if ((key === 'f' || key === 'F') && state.view === 'draw' && state.card && state.favKnown) {
    event.preventDefault();
    setFavourite(state.card, !state.favIDs.has(state.card.id));
  } else if ((key === ' ' || key === 'Enter') && state.view === 'draw') {
    if (target.closest('button, a, summary, [role="button"], dialog')) return; // they act on their own
    event.preventDefault();
    drawCard();
  }
});

window.addEventListener('online', () => {
  flushPending().then(() => loadFavourites()).catch(() => {});
});

const ready = loadEditions(); // fills the labels from the page at once, then from the API
loadSettings();
ready.then(reflectSettings);
router.start();
flushPending().then(() => loadFavourites()).catch(() => {
  // Offline or failing: go by what this device knows (favourites queued here).
  for (const [id, on] of Object.entries(readPending())) if (on) state.favIDs.add(Number(id));
  state.favKnown = true;
  updateCardButtons();
});
if (settings.shuffle) refreshShuffle();
whenIdle(() => {
  loadDeck().catch(() => {});
  if (settings.source !== 'published') loadMine().catch(() => {});
  ready.then(keepForOffline);
});
