// Choose Your Destiny hub: the Library (stories this profile reads, with where each reader is), the Catalog
// (every published story, narrowed by a search as you type or to one author) and the Authors, each a URL;
// publishing for signed-in accounts is in publish.js.
import { api, toast, undoable } from '../js/api.js';
import { kept, waiting } from '../js/sync.js';
import { plural } from '../js/format.js';
import { $, make, say, busy } from './dom.js';
import { createRouter, parseView, viewPath } from '../js/router.js';
import { filterStories, countsLine } from './logic.js';
import {
  TABS,
  hubView,
  byline,
  authorQuery,
  byAuthor,
  authorsOf,
  authorHeading,
  progressOf,
  progressLines,
  sourcesLine,
  coverMark,
} from './hub-logic.js';
import { initPublish, renderOwn } from './publish.js';

const API = '/api/v1/stories';
const state = { catalog: [], library: [], places: new Map(), tab: 'catalog', query: {} };
const leaving = new Map(); // story id → the removal from the library whose Undo has not run out yet

// ---------- Views ----------

// Each view is a URL (js/router.js): the Catalog is the first view (no hash, or '#catalog'), one author's
// stories '#catalog?author=ada' ('?house=true' for Trove's own), the Library '#library', the Authors
// '#authors'. Choosing a tab or an author pushes a history entry; Back, Forward and a typed hash move between them.
const router = createRouter({ onView: (view) => showView(hubView(parseView(view))) });
const viewName = (tab, query = {}) => (tab === 'catalog' ? viewPath(Object.keys(query).length ? 'catalog' : '', query) : tab);
const goTab = (name, focus = false) => {
  router.go(viewName(name));
  if (focus) $(`tab-${name}`).focus();
};

function showView({ tab, query }) {
  const narrowed = JSON.stringify(query) !== JSON.stringify(state.query);
  state.tab = tab;
  state.query = query;
  for (const key of TABS) {
    const button = $(`tab-${key}`);
    const on = key === tab;
    button.setAttribute('aria-selected', String(on));
    button.tabIndex = on ? 0 : -1;
    $(`panel-${key}`).hidden = !on;
  }
  if (narrowed) renderList('catalog');
}

function initTabs() {
  for (const key of TABS) $(`tab-${key}`).addEventListener('click', () => goTab(key));
  $('stories')
    .querySelector('[role=tablist]')
    .addEventListener('keydown', (e) => {
      const step = { ArrowRight: 1, ArrowLeft: -1, Home: -9, End: 9 }[e.key];
      if (!step) return;
      e.preventDefault();
      const index = Math.max(0, Math.min(TABS.length - 1, TABS.indexOf(state.tab) + step));
      goTab(TABS[index], true);
    });
  $('author-all').addEventListener('click', (e) => {
    e.preventDefault();
    router.go('');
  });
  if (location.hash === '#catalog') history.replaceState(history.state, '', location.pathname + location.search); // the first view has one name
  router.start();
}

/** A link to one author's stories in the catalog (the byline, an author's name in the Authors). */
function authorLink(story, text, className) {
  const view = viewName('catalog', authorQuery(story));
  return make('a', {
    className,
    href: `#${view}`,
    text,
    onclick: (e) => {
      e.preventDefault();
      router.go(view);
      window.scrollTo(0, 0);
      $('catalog-heading').focus({ preventScroll: true });
    },
  });
}

// ---------- Lists ----------

/** The cover, or the placeholder with the title's first letter when there is none or it cannot load. */
function cover(story) {
  const placeholder = () => {
    const { letter, hue } = coverMark(story.name);
    const box = make('div', { className: 'st-cover st-cover-none', 'aria-hidden': 'true' }, make('span', { text: letter }));
    box.style.setProperty('--st-hue', hue);
    return box;
  };
  if (!story.cover_url) return placeholder();
  const img = make('img', {
    className: 'st-cover',
    src: story.cover_url,
    alt: '',
    loading: 'lazy',
    decoding: 'async',
    width: 320,
    height: 200,
  });
  img.addEventListener('error', () => img.replaceWith(placeholder()), { once: true });
  return img;
}

function bylineLine(story) {
  const by = byline(story);
  return make(
    'p',
    { className: 'st-author' },
    'by ',
    authorLink(story, by.name, 'st-byline'),
    by.penName ? make('span', { className: 'st-pen', text: ` (writing as ${by.penName})` }) : null,
  );
}

function card(story, where) {
  const titleId = `${where}-title-${story.id}`;
  const library = story.in_library
    ? make('button', {
        className: 'button st-remove',
        type: 'button',
        text: 'Remove',
        'aria-describedby': titleId,
        onclick: () => removeFromLibrary(story),
      })
    : make('button', {
        className: 'button st-add',
        type: 'button',
        text: 'Add to library',
        'aria-describedby': titleId,
        onclick: (e) => addToLibrary(story, e.currentTarget),
      });
  const progress = where === 'library' ? progressOf(story.progress, state.places.get(story.id), state.deviceFirst) : null;
  const href = `/stories/${encodeURIComponent(story.id)}`;
  const li = make(
    'li',
    { className: 'st-card', dataset: { id: story.id } },
    cover(story),
    make(
      'div',
      { className: 'st-card-body' },
      make('h3', { className: 'st-title', id: titleId, text: story.name }),
      bylineLine(story),
      story.summary ? make('p', { className: 'st-summary', text: story.summary }) : null,
      make('p', { className: 'st-counts', text: countsLine(story) }),
      progress
        ? make(
            'p',
            { className: 'st-progress' },
            ...progressLines(progress, story.ending_count).flatMap((line, i) => (i ? [make('br'), line] : [line])),
          )
        : null,
      make(
        'div',
        { className: 'st-actions' },
        progress
          ? make('a', {
              className: 'button primary st-continue',
              href: `${href}#chapter/${encodeURIComponent(progress.chapterId)}`,
              text: 'Continue',
              'aria-describedby': titleId,
            })
          : make('a', { className: 'button primary st-read', href, text: 'Read', 'aria-describedby': titleId }),
        library,
      ),
    ),
  );
  if (where === 'library') swipeToRemove(li, story);
  return li;
}

function renderList(where) {
  const narrowed = where === 'catalog' && Object.keys(state.query).length > 0;
  const all = narrowed ? state.catalog.filter((s) => byAuthor(s, state.query)) : state[where];
  const query = $(`${where}-q`).value;
  const shown = filterStories(all, query);
  $(`${where}-list`).replaceChildren(...shown.map((story) => card(story, where)));
  const empty = $(`${where}-empty`);
  empty.hidden = shown.length > 0;
  if (!shown.length) {
    empty.textContent = all.length
      ? `No story matches “${query.trim()}”.`
      : where === 'library'
        ? 'Your library is empty. Stories you read or add from the Catalog come here.'
        : narrowed
          ? 'This author has no story in the catalog.'
          : 'No stories published yet.';
  }
  $(`${where}-count`).textContent = query.trim() && all.length ? `${shown.length} of ${plural(all.length, 'story', 'stories')}` : '';
  if (where === 'library') $('library-hint').hidden = !all.length;
  if (where === 'catalog') {
    $('author-filter').hidden = !narrowed;
    $('catalog-heading').textContent = narrowed ? authorHeading(state.catalog, state.query) : 'Catalog';
    $('catalog-heading').classList.toggle('visually-hidden', !narrowed);
  }
}

function renderAuthors() {
  const authors = authorsOf(state.catalog);
  $('authors-empty').hidden = authors.length > 0;
  $('authors-list').replaceChildren(
    ...authors.map((author) =>
      make(
        'li',
        { className: 'st-author-item' },
        make('h3', { className: 'st-author-name' }, authorLink(author.stories[0], author.name, 'st-author-link')),
        make('p', {
          className: 'st-muted',
          text: author.house
            ? `${plural(author.stories.length, 'story', 'stories')} that come with Trove`
            : plural(author.stories.length, 'story', 'stories'),
        }),
        make(
          'ul',
          { className: 'st-author-stories' },
          ...author.stories.map((story) =>
            make('li', {}, make('a', { href: `/stories/${encodeURIComponent(story.id)}`, text: story.name })),
          ),
        ),
      ),
    ),
  );
  $('catalog-sources').textContent = state.catalog.length ? `In the catalog: ${sourcesLine(state.catalog)}.` : '';
}

function renderAll() {
  renderList('library');
  renderList('catalog');
  renderAuthors();
  renderOwn(state.catalog);
}

async function load() {
  const [catalog, library] = await Promise.allSettled([api('GET', API), api('GET', `${API}/library`)]);
  for (const answer of [catalog, library]) {
    if (answer.status === 'rejected' && answer.reason.code !== 'network') throw answer.reason;
  }
  state.catalog = catalog.status === 'fulfilled' ? catalog.value.stories : [];
  state.library = library.status === 'fulfilled' ? library.value.stories : [];
  // A removal still waiting for its Undo to run out is not on the server yet: keep it off the page.
  state.library = state.library.filter((s) => !leaving.has(s.id));
  for (const item of state.catalog) if (leaving.has(item.id)) item.in_library = false;
  // Where this device left each library story (the server's summary says it too, when it has `progress`).
  const places = await Promise.all(state.library.map((s) => kept(`${API}/${encodeURIComponent(s.id)}/progress`)));
  state.places = new Map(state.library.map((s, i) => [s.id, places[i]]));
  const offline = catalog.status === 'rejected';
  // Read offline, or moved since: the server's summaries (or the worker's copy of them) are older than the places.
  state.deviceFirst = offline || (await waiting('stories')) > 0;
  if (!offline) keepForOffline(state.library);
  else if (router.view === '') router.go('library', { replace: true }); // offline, the Library is what can be read
  $('offline-note').hidden = !offline;
  state.loaded = !offline;
  renderAll();
  // Offline, the library is the service worker's copy, if it has one.
  if (offline) unavailable('catalog', 'The catalog cannot be loaded while offline.');
  if (library.status === 'rejected') unavailable('library', 'Your library cannot be loaded while offline.');
}

function unavailable(where, message) {
  $(`${where}-empty`).hidden = false;
  $(`${where}-empty`).textContent = message;
}

// ---------- Offline ----------

// What the reader page needs besides the page itself (versioned like this script).
const READER_ASSETS = [
  './reader.js',
  './dom.js',
  './chapter.js',
  './logic.js',
  './text.js',
  './stories.css',
  './hub-logic.js',
  './publish.js',
  '../js/api.js',
  '../js/router.js',
  '../js/toast.js',
  '../js/dom.js',
  '../js/shell.js',
  '../js/format.js',
  '../js/sync.js',
  '../js/outbox.js',
  '../js/sync-logic.js',
  '../css/app.css',
  '../css/toast.css',
].map((path) => new URL(path, import.meta.url).pathname);

function tellWorker(messages) {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.ready
    .then((registration) => {
      if (registration.active) for (const message of messages) registration.active.postMessage(message);
    })
    .catch(() => {});
}

/** Asks the service worker to keep the library's stories, their reader pages and this page for offline reading. */
function keepForOffline(stories) {
  const pages = stories.map((story) => `/stories/${encodeURIComponent(story.id)}`);
  // This page's own script too: it was fetched before the worker controlled the page, and without it the
  // library cannot show offline (Chromium's HTTP cache happens to hold it; WebKit's need not).
  const urls = ['/stories', new URL(import.meta.url).pathname, `${API}/library`, ...READER_ASSETS, ...pages];
  const messages = [];
  for (let i = 0; i < urls.length; i += 32) messages.push({ type: 'trove:keep', urls: urls.slice(i, i + 32) });
  for (const story of stories) messages.push({ type: 'trove:keep-story', id: story.id });
  tellWorker(messages);
}

function setInLibrary(story, on) {
  for (const item of state.catalog) if (item.id === story.id) item.in_library = on;
  state.library = on
    ? [{ ...story, in_library: true }, ...state.library.filter((s) => s.id !== story.id)]
    : state.library.filter((s) => s.id !== story.id);
}

async function addToLibrary(story, button) {
  const removal = leaving.get(story.id);
  if (removal) {
    removal.undo();
    return;
  } // removed a moment ago and not sent yet: the Undo puts it back
  await busy(button, async () => {
    try {
      await api('PUT', `${API}/${encodeURIComponent(story.id)}/library`);
      setInLibrary(story, true);
      renderAll();
      keepForOffline([story]);
      say(`${story.name} is in your library.`);
      toast(`Added “${story.name}” to your library`);
      focusCard(state.tab, story.id, '.st-remove');
    } catch (error) {
      toast(error.message);
    }
  });
}

/**
 * Takes a story out of the library at once, with an Undo in the toast: the DELETE is sent only when the
 * Undo runs out (or the page is left), so Undo puts it back in its place without asking the server.
 */
function removeFromLibrary(story) {
  const index = [...$(`${state.tab}-list`).children].findIndex((li) => li.dataset.id === story.id);
  const at = state.library.findIndex((s) => s.id === story.id);
  const entry = at >= 0 ? state.library[at] : { ...story, in_library: true };
  const path = `${API}/${encodeURIComponent(story.id)}/library`;
  setInLibrary(story, false);
  renderAll();
  const putBack = () => {
    leaving.delete(story.id);
    for (const item of state.catalog) if (item.id === story.id) item.in_library = true;
    state.library = state.library.filter((s) => s.id !== story.id);
    state.library.splice(at >= 0 ? Math.min(at, state.library.length) : 0, 0, entry);
    renderAll();
  };
  const removal = undoable(`Removed “${story.name}” from your library`, {
    undo: () => {
      putBack();
      say(`${story.name} is back in your library.`);
      focusCard(state.tab, story.id, '.st-remove');
    },
    commit: async ({ keepalive }) => {
      if (leaving.get(story.id) === removal) leaving.delete(story.id);
      try {
        await api('DELETE', path, undefined, { keepalive });
        tellWorker([
          { type: 'trove:drop-story', id: story.id },
          { type: 'trove:keep', urls: [`${API}/library`] },
        ]);
      } catch (error) {
        // The page is going away, or the story was added again meanwhile.
        if (keepalive || state.library.some((s) => s.id === story.id)) return;
        putBack();
        toast(
          error.code === 'network' ? `“${story.name}” could not be removed while offline; it is still in your library.` : error.message,
        );
      }
    },
  });
  leaving.set(story.id, removal);
  // The focus moves only once the removal and its Undo are under way, so nothing here can stop them half way.
  if (state.tab === 'library') {
    const next = $('library-list').children[Math.min(index, $('library-list').children.length - 1)];
    // The next card's first link (Read, or Continue for a story begun); the last one gone: its tab takes the focus,
    // not the search field, whose keyboard would cover the Undo.
    (next?.querySelector('.st-actions a') || $('tab-library')).focus();
  } else {
    focusCard('catalog', story.id, '.st-add');
  }
}

function focusCard(where, id, selector) {
  const li = [...$(`${where}-list`).children].find((item) => item.dataset.id === id);
  const control = li && li.querySelector(selector);
  if (control) control.focus();
}

/** Swipe a Library story left with a finger to remove it (the Remove button does the same). */
function swipeToRemove(li, story) {
  li.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'touch' || e.target.closest('a, button, input')) return;
    const x0 = e.clientX;
    const y0 = e.clientY;
    let dx = 0;
    let sideways = false;
    const move = (ev) => {
      dx = Math.min(0, ev.clientX - x0);
      if (!sideways && Math.abs(dx) > 12 && Math.abs(dx) > Math.abs(ev.clientY - y0)) sideways = true;
      if (sideways) {
        li.style.transform = `translateX(${dx}px)`;
        li.classList.toggle('st-swiping', dx < -li.offsetWidth * 0.35);
      }
    };
    const end = (ev) => {
      li.removeEventListener('pointermove', move);
      li.removeEventListener('pointerup', end);
      li.removeEventListener('pointercancel', end);
      li.style.transform = '';
      li.classList.remove('st-swiping');
      if (sideways && ev.type === 'pointerup' && dx < -li.offsetWidth * 0.35) removeFromLibrary(story);
    };
    li.addEventListener('pointermove', move);
    li.addEventListener('pointerup', end);
    li.addEventListener('pointercancel', end);
  });
}

// ---------- Start ----------

async function start() {
  initTabs();
  initPublish({ load, stories: () => state.catalog });
  for (const where of ['library', 'catalog']) $(`${where}-q`).addEventListener('input', () => renderList(where));
  // Gone offline after the catalog loaded: the note says what needs the connection; back online, it goes.
  addEventListener('offline', () => ($('offline-note').hidden = false));
  addEventListener('online', () => state.loaded && ($('offline-note').hidden = true));
  try {
    await load();
  } catch (error) {
    $('catalog-empty').hidden = false;
    $('catalog-empty').textContent = `The stories could not be loaded. ${error.message}`;
  }
  $('stories').dataset.ready = 'true';
  // The moves made offline reached the server: its places are the newest again.
  addEventListener('trove:synced', (event) => event.detail.scopes.includes('stories') && load().catch(() => {}));
}

start();
