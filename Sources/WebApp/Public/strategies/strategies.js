// Oblique Strategies: draw a card, browse the deck, keep favourites, write your own cards.
// The entry: the views as URLs, the tabs, the keys, and the start. The draw view and favourites come with the
// page (draw.js, favourites.js); the other views load when first shown (all.js, today.js, mine.js, popular.js,
// history.js), and the service worker keeps them from the first visit so they open offline too. The pure
// rules are in logic.js and lists.js; changes made offline go through the shared outbox (js/sync.js).
import { $ } from '../js/dom.js';
import { backCloses } from '../js/back-closes.js';
import { parseView, viewPath } from '../js/router.js';
import { API, SCOPE, cardId, swapId } from './logic.js';
import { ui, state, router, routeWith, findKnownCard, loadDeck, loadEditions, loadMine } from './page.js';
import { settings, loadSettings, reflectSettings, refreshShuffle, showPrompt, openCard, pick, openCardByID, drawCard } from './draw.js';
import { setFavourite, loadFavourites, favouritesFromOutbox, enterFavourites, removeFavourite, adoptKeptWrites } from './favourites.js';

const VIEWS = ['draw', 'all', 'favourites', 'today', 'mine', 'popular', 'history'];
const MORE = ['today', 'mine', 'popular', 'history']; // behind "More" on a phone
const LAZY = { all: './all.js', today: './today.js', mine: './mine.js', popular: './popular.js', history: './history.js' };
const loaded = {};
const view = (name) =>
  (loaded[name] ??= import(LAZY[name]).catch((error) => {
    loaded[name] = null;
    throw error;
  }));

const ready = loadEditions(); // fills the labels from the page at once, then from the API

// ---------- Views ----------

// Each view is a URL (js/router.js): '' is the draw view with the prompt, 'card/<id>' the draw view
// with that card, 'all' (with ?q= for its search), 'favourites', 'today', 'mine', 'popular', 'history'.
// Tabs and choosing a card push a history entry; a draw and typing a search replace it.

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

routeWith((hash) => {
  const { name, args, query } = parseView(hash);
  const legacy = /^card-(\d+)$/.exec(name); // the links of before: #card-12
  const id = name === 'card' ? cardId(args[0]) : null;
  if (legacy) {
    router.go(viewPath('card', legacy[1]), { replace: true });
  } else if (id !== null) {
    showView('draw');
    openCard(id);
  } else if (VIEWS.includes(name)) {
    if (name === 'all' && (query.q || '') !== ui.search.value.trim()) {
      ui.search.value = query.q || '';
      if (loaded.all) view('all').then((m) => m.filter());
    }
    showView(name);
  } else {
    if (state.card) showPrompt();
    showView('draw');
  }
});

const menuOpen = () => ui.tabs.classList.contains('is-open');
const menuLayer = backCloses(() => setMenu(false), menuOpen); // Back closes the open "More" menu

function setMenu(open) {
  const opening = open && !menuOpen();
  ui.tabs.classList.toggle('is-open', open);
  ui.more.setAttribute('aria-expanded', String(open));
  if (opening) menuLayer.opened();
  else if (!open) menuLayer.closed();
}

function showView(name) {
  if (!VIEWS.includes(name)) return;
  state.view = name;
  for (const other of VIEWS) {
    const on = other === name;
    $(`tab-${other}`).setAttribute('aria-pressed', String(on));
    $(`view-${other}`).hidden = !on;
  }
  // "More" is named after the view it holds, when that one is shown.
  const inMore = MORE.includes(name);
  ui.more.classList.toggle('is-current', inMore);
  ui.moreLabel.textContent = inMore ? $(`tab-${name}`).textContent : 'More';
  if (name === 'favourites') enterFavourites();
  else if (LAZY[name])
    view(name).then(
      (m) => state.view === name && m.enter(ready),
      () => unavailable(name),
    );
}

// Where each view says it could not open: its module did not load (offline, on a first visit before the service
// worker kept it).
const STATUS = { all: 'all-count', today: 'today-text', mine: 'mine-empty', popular: 'popular-empty', history: 'history-empty' };
function unavailable(name) {
  const status = $(STATUS[name]);
  status.hidden = false;
  status.textContent = 'This view needs the connection the first time it is opened.';
}

// ---------- Wiring ----------

for (const name of VIEWS) $(`tab-${name}`).addEventListener('click', () => goTo(name));
ui.more.addEventListener('click', () => {
  const open = !menuOpen();
  setMenu(open);
  if (open) $(`tab-${MORE.includes(state.view) ? state.view : MORE[0]}`).focus();
});
document.addEventListener('click', (event) => {
  if (!ui.tabs.contains(event.target)) setMenu(false);
});
ui.tabs.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && menuOpen()) {
    event.preventDefault();
    setMenu(false);
    ui.more.focus();
  }
});

ui.search.addEventListener('input', () => {
  view('all').then(
    (m) => m.filter(),
    () => {},
  );
  router.go(viewFor('all'), { replace: true, quiet: true }); // a search refines All: no new entry
});

// Lists: choosing a card shows it on the draw view; Remove in Favourites removes it, with an Undo.
for (const list of [ui.allList, ui.favList, ui.popularList, ui.historyList]) {
  list.addEventListener('click', (event) => {
    const remove = event.target.closest('[data-remove]');
    if (remove) {
      const card = findKnownCard(cardId(remove.dataset.remove));
      const index = [...ui.favList.querySelectorAll('[data-remove]')].indexOf(remove);
      if (card) removeFavourite(card);
      const buttons = ui.favList.querySelectorAll('[data-remove]');
      const next = buttons[Math.min(index, buttons.length - 1)];
      (next || $('favourites-heading')).focus();
      return;
    }
    const item = event.target.closest('.os-item[data-id]');
    if (!item) return;
    const id = cardId(item.dataset.id);
    const card = findKnownCard(id);
    if (card) pick(card);
    else openCardByID(id);
  });
}

$('today-show').addEventListener('click', () => state.today && pick(state.today));

// Mine's form is here, so a tap before mine.js is in never sends the form as a page load.
$('mine-form').addEventListener('submit', (event) => {
  event.preventDefault();
  view('mine').then(
    (m) => m.add(),
    () => {},
  );
});
$('mine-text').addEventListener('input', () =>
  view('mine').then(
    (m) => m.onInput(),
    () => {},
  ),
);

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

// A card written offline reached the server: it goes by the id the server gave it from now on.
addEventListener('trove:sync-id', ({ detail }) => {
  if (detail.scope !== SCOPE) return;
  const real = cardId(detail.id);
  state.mine = swapId(state.mine, detail.temp, real);
  state.favourites = swapId(state.favourites, detail.temp, real);
  if (state.favIDs.delete(detail.temp)) state.favIDs.add(real);
  const known = state.known.get(detail.temp);
  if (known) state.known.set(real, { ...known, id: real });
  if (state.card && state.card.id === detail.temp) state.card = { ...state.card, id: real };
});

// An edit of an own card the outbox could not send, deleted on another device meanwhile: Mine adds it again.
addEventListener('trove:sync-dropped', ({ detail }) => {
  if (detail.entry.scope === SCOPE && detail.entry.path.startsWith(`${API}/mine/`)) view('mine').then((m) => m.dropped(detail));
});

// ---------- Offline ----------

// Whether this page load went through the service worker (and so was cached as it loaded). Read now:
// the worker may claim the page later in this same visit, after its requests went past it.
const controlledAtLoad = 'serviceWorker' in navigator && Boolean(navigator.serviceWorker.controller);

/**
 * Asks the service worker to keep what this page needs offline that it has not loaded itself: the views that
 * load when first shown (with lists.js and time.js, which only they import), and, on a first visit (before the
 * worker controlled the page), the deck's answers.
 */
function keepForOffline() {
  if (!('serviceWorker' in navigator)) return;
  const modules = [...Object.values(LAZY), './lists.js', '../js/time.js'].map((path) => new URL(path, import.meta.url).pathname);
  const urls = controlledAtLoad ? modules : [location.pathname, ...modules, API, `${API}/editions`];
  navigator.serviceWorker.ready
    .then((registration) => registration.active && registration.active.postMessage({ type: 'trove:keep', urls }))
    .catch(() => {});
}

function whenIdle(callback) {
  if ('requestIdleCallback' in window) window.requestIdleCallback(callback, { timeout: 1500 });
  else setTimeout(callback, 200);
}

// ---------- Start ----------

showPrompt();
loadSettings();
ready.then(reflectSettings);
router.start();
adoptKeptWrites().finally(() => loadFavourites().catch(() => favouritesFromOutbox()));
if (settings.shuffle) refreshShuffle();
whenIdle(() => {
  loadDeck().catch(() => {});
  if (settings.source !== 'published') loadMine().catch(() => {});
  ready.then(keepForOffline);
});
