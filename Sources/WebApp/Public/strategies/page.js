// Oblique Strategies: what the views share: the page's elements, the state, the router, and the loaders of the
// deck, the editions' labels and the own cards.
import { api } from '../js/api.js';
import { $, make, announce } from '../js/dom.js';
import { createRouter } from '../js/router.js';
import { read } from '../js/sync.js';
import { API, editionLabel, metaFor, newestFirst } from './logic.js';

export const ui = {
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
  popularList: $('popular-list'),
  historyList: $('history-list'),
};

export const state = {
  view: 'draw',
  card: null, // the card on the draw view
  deck: null, // published cards, once loaded
  deckByID: new Map(),
  known: new Map(), // id → card, for every card shown in a list
  deckLoading: null,
  labels: new Map(), // edition number → label
  mine: null, // own cards, newest first, once loaded
  favourites: null, // favourite cards, newest first, once loaded
  favIDs: new Set(),
  favKnown: false, // until the favourites are loaded, neither button can tell which fits
  today: null,
};

// Each view is a URL (js/router.js); the entry module (strategies.js) says what each view shows.
let onView = () => {};
export const router = createRouter({ onView: (...args) => onView(...args) });
export const routeWith = (fn) => {
  onView = fn;
};

export const label = (edition) => editionLabel(state.labels, edition);
export const meta = (card) => metaFor(state.labels, card);

/** A polite message for screen readers, for changes the page already shows (no toast to cover the buttons). */
export const say = (message) => announce('announce', message);

export const isNetworkError = (error) => Boolean(error) && error.status === 0;

export function findKnownCard(id) {
  if (state.deckByID.has(id)) return state.deckByID.get(id);
  if (state.known.has(id)) return state.known.get(id);
  const lists = [state.mine, state.favourites, state.card ? [state.card] : null, state.today ? [state.today] : null];
  for (const list of lists) {
    const found = list && list.find((card) => card.id === id);
    if (found) return found;
  }
  return null;
}

/** A card in a list, as a button that shows it on the draw view. */
export function cardButton(card, extra) {
  state.known.set(card.id, card);
  return make(
    'button',
    { type: 'button', className: 'os-item', dataset: { id: card.id } },
    make('span', { text: card.strategy }),
    make('span', { className: 'os-item-meta', text: extra || meta(card) }),
  );
}

/** The published deck, fetched once (the service worker keeps it, so it is there offline too). */
export function loadDeck() {
  if (state.deck) return Promise.resolve(state.deck);
  state.deckLoading ??= api('GET', API)
    .then((cards) => {
      state.deck = cards;
      state.deckByID = new Map(cards.map((card) => [card.id, card]));
      return cards;
    })
    .finally(() => {
      state.deckLoading = null;
    });
  return state.deckLoading;
}

/** The editions' labels: those of the page at once, then the API's (which name each edition with its year). */
export async function loadEditions() {
  for (const option of ui.edition.options) {
    if (option.value) state.labels.set(Number(option.value), option.textContent.trim());
  }
  try {
    const sections = await api('GET', `${API}/editions`);
    for (const section of sections) state.labels.set(section.edition, section.label);
    for (const option of ui.edition.options) {
      const name = option.value && state.labels.get(Number(option.value));
      if (name) option.textContent = name;
    }
  } catch {
    // The labels from the page are enough.
  }
}

/** The own cards: the server's, or the device's copy offline or while changes to them wait. */
export async function loadMine() {
  state.mine = newestFirst(await read(`${API}/mine`, 'strategies'));
  return state.mine;
}
