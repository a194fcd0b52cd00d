// Choose Your Destiny hub: the Library (stories this profile added) and the Catalog (every
// published story), each narrowed by a search as you type, and publishing for signed-in accounts.
import { api, request, toast, undoable } from '../js/api.js';
import { $, make, say, confirmDialog, busy } from './dom.js';
import { createRouter, parseView } from '../js/router.js';
import { filterStories, countsLine, plural, uploadType, errorLines } from './logic.js';

const API = '/api/v1/stories';
const state = { catalog: [], library: [], tab: 'catalog' };
const leaving = new Map(); // story id → the removal from the library whose Undo has not run out yet

// ---------- Tabs ----------

// Each tab is a URL (js/router.js): the Catalog is the first view (no hash, or '#catalog'), the Library
// '#library'. Choosing a tab pushes a history entry; Back, Forward and a hash typed by hand switch tabs.
const TABS = ['library', 'catalog'];
const tabOf = (view) => (parseView(view).name === 'library' ? 'library' : 'catalog');
const router = createRouter({ onView: (view) => showTab(tabOf(view)) });
const goTab = (name, focus = false) => {
  router.go(name === 'catalog' ? '' : name);
  if (focus) $(`tab-${name}`).focus();
};

function showTab(name, focus = false) {
  state.tab = name;
  for (const key of TABS) {
    const tab = $(`tab-${key}`);
    const on = key === name;
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
    $(`panel-${key}`).hidden = !on;
    if (on && focus) tab.focus();
  }
}

function initTabs() {
  for (const key of TABS) $(`tab-${key}`).addEventListener('click', () => goTab(key));
  $('stories').querySelector('[role=tablist]').addEventListener('keydown', (e) => {
    const step = { ArrowRight: 1, ArrowLeft: -1, Home: -9, End: 9 }[e.key];
    if (!step) return;
    e.preventDefault();
    const index = Math.max(0, Math.min(TABS.length - 1, TABS.indexOf(state.tab) + step));
    goTab(TABS[index], true);
  });
  if (location.hash === '#catalog') history.replaceState(history.state, '', location.pathname + location.search); // the first view has one name
  router.start();
}

// ---------- Lists ----------

function card(story, where) {
  const cover = story.cover_url
    ? make('img', { className: 'st-cover', src: story.cover_url, alt: '', loading: 'lazy', decoding: 'async', width: 320, height: 200 })
    : make('div', { className: 'st-cover st-cover-none', 'aria-hidden': 'true' }, make('span', { text: initial(story.name) }));
  const titleId = `${where}-title-${story.id}`;
  const library = story.in_library
    ? make('button', { className: 'button st-remove', type: 'button', text: 'Remove', 'aria-describedby': titleId, onclick: () => removeFromLibrary(story) })
    : make('button', { className: 'button st-add', type: 'button', text: 'Add to library', 'aria-describedby': titleId, onclick: (e) => addToLibrary(story, e.currentTarget) });
  const li = make('li', { className: 'st-card', dataset: { id: story.id } },
    cover,
    make('div', { className: 'st-card-body' },
      make('h3', { className: 'st-title', id: titleId, text: story.name }),
      story.author ? make('p', { className: 'st-author', text: `by ${story.author}` }) : null,
      story.summary ? make('p', { className: 'st-summary', text: story.summary }) : null,
      make('p', { className: 'st-counts', text: countsLine(story) }),
      make('div', { className: 'st-actions' },
        make('a', { className: 'button primary st-read', href: `/stories/${encodeURIComponent(story.id)}`, text: 'Read', 'aria-describedby': titleId }),
        library)));
  if (where === 'library') swipeToRemove(li, story);
  return li;
}

const initial = (name) => (String(name).trim()[0] || '?').toUpperCase();

function renderList(where) {
  const all = state[where];
  const query = $(`${where}-q`).value;
  const shown = filterStories(all, query);
  $(`${where}-list`).replaceChildren(...shown.map((story) => card(story, where)));
  const empty = $(`${where}-empty`);
  empty.hidden = shown.length > 0;
  if (!shown.length) {
    empty.textContent = all.length
      ? `No story matches “${query.trim()}”.`
      : where === 'library' ? 'Your library is empty. Add stories from the Catalog.' : 'No stories published yet.';
  }
  $(`${where}-count`).textContent = query.trim() && all.length ? `${shown.length} of ${plural(all.length, 'story', 'stories')}` : '';
  if (where === 'library') $('library-hint').hidden = !all.length;
}

function renderAll() {
  renderList('library');
  renderList('catalog');
  renderOwn();
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
  const offline = catalog.status === 'rejected';
  if (!offline) keepForOffline(state.library);
  else if (router.view === '') router.go('library', { replace: true }); // offline, the Library is what can be read
  $('offline-note').hidden = !offline;
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
const READER_ASSETS = ['./reader.js', './dom.js', './logic.js', './text.js', './stories.css', '../js/api.js', '../js/router.js', '../js/toast.js', '../js/dom.js', '../js/shell.js', '../css/app.css', '../css/toast.css']
  .map((path) => new URL(path, import.meta.url).pathname);

function tellWorker(messages) {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.ready.then((registration) => {
    if (registration.active) for (const message of messages) registration.active.postMessage(message);
  }).catch(() => {});
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
  if (removal) { removal.undo(); return; } // removed a moment ago and not sent yet: the Undo puts it back
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
  leaving.set(story.id, null);
  setInLibrary(story, false);
  renderAll();
  if (state.tab === 'library') {
    const next = $('library-list').children[Math.min(index, $('library-list').children.length - 1)];
    (next ? next.querySelector('.st-read') : $('library-q')).focus();
  } else {
    focusCard('catalog', story.id, '.st-add');
  }
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
        tellWorker([{ type: 'trove:drop-story', id: story.id }, { type: 'trove:keep', urls: [`${API}/library`] }]);
      } catch (error) {
        // The page is going away, or the story was added again meanwhile.
        if (keepalive || state.library.some((s) => s.id === story.id)) return;
        putBack();
        toast(error.code === 'network'
          ? `“${story.name}” could not be removed while offline; it is still in your library.`
          : error.message);
      }
    },
  });
  leaving.set(story.id, removal);
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

// ---------- Publishing ----------

/** Sends a story file; resolves with the answer's JSON, or throws the API's error (with its details). */
async function upload(method, path, file) {
  const type = uploadType(file.name);
  if (!type) {
    const error = new Error(`“${file.name}” is not a story file: choose a .json, .twee, .tw or .txt file.`);
    error.details = [];
    throw error;
  }
  const response = await request(method, path, file, type);
  const text = await response.text();
  return text ? JSON.parse(text) : {};
}

function showResult(message, warnings) {
  $('publish-errors-box').hidden = true;
  $('publish-result').hidden = false;
  $('publish-ok').textContent = message;
  $('publish-warnings').replaceChildren(...warnings.map((w) => make('li', { text: w })));
  $('publish-warnings-box').hidden = !warnings.length;
  say(warnings.length ? `${message} ${plural(warnings.length, 'warning')}.` : message);
}

function showErrors(error) {
  $('publish-result').hidden = true;
  const lines = errorLines(error);
  const many = Array.isArray(error.details) && error.details.length > 0;
  $('publish-error').textContent = many ? `${error.message.replace(/[.:]?\s*$/, '')}:` : lines[0];
  $('publish-errors').replaceChildren(...(many ? lines.map((line) => make('li', { text: line })) : []));
  $('publish-errors-box').hidden = false;
}

async function publish(e) {
  e.preventDefault();
  const file = $('publish-file').files[0];
  if (!file) {
    showErrors(Object.assign(new Error('Choose a story file first.'), { details: [] }));
    $('publish-file').focus();
    return;
  }
  await busy($('publish-submit'), async () => {
    try {
      const answer = await upload('POST', API, file);
      await load();
      const story = state.catalog.find((s) => s.id === answer.id);
      showResult(`Published “${story ? story.name : answer.id}”.`, answer.warnings || []);
      $('publish-form').reset();
    } catch (error) {
      showErrors(error);
    }
  });
}

function renderOwn() {
  if (!$('own-list')) return;
  const own = state.catalog.filter((s) => s.owned);
  $('own-box').hidden = !own.length;
  $('own-list').replaceChildren(...own.map((story) => make('li', { className: 'st-own-item', dataset: { id: story.id } },
    make('span', { className: 'st-own-name', text: story.name }),
    make('span', { className: 'st-actions' },
      make('button', { className: 'button st-update', type: 'button', text: 'Update', 'aria-label': `Update ${story.name}`, onclick: () => chooseUpdate(story) }),
      make('button', { className: 'button danger st-withdraw', type: 'button', text: 'Withdraw', 'aria-label': `Withdraw ${story.name}`, onclick: (ev) => withdraw(story, ev.currentTarget) })))));
}

let updating = null;

function chooseUpdate(story) {
  updating = story;
  const input = $('update-file');
  input.value = '';
  input.click();
}

async function update() {
  const file = $('update-file').files[0];
  const story = updating;
  if (!file || !story) return;
  try {
    const answer = await upload('PUT', `${API}/${encodeURIComponent(story.id)}`, file);
    await load();
    showResult(`Updated “${story.name}”.`, answer.warnings || []);
  } catch (error) {
    showErrors(error);
  }
  $('publish-heading').scrollIntoView({ block: 'start' });
}

async function withdraw(story, button) {
  const yes = await confirmDialog({
    title: `Withdraw “${story.name}”?`,
    text: 'It leaves the catalog and every library, and readers lose their place in it. This cannot be undone.',
    ok: 'Withdraw', cancel: 'Keep it',
  });
  if (!yes) { button.focus(); return; }
  try {
    await api('DELETE', `${API}/${encodeURIComponent(story.id)}`);
    await load();
    toast(`Withdrew “${story.name}”`);
    $('publish-heading').focus();
  } catch (error) {
    toast(error.message);
  }
}

function initPublish() {
  if (!$('publish-form')) return;
  $('publish-form').addEventListener('submit', publish);
  $('update-file').addEventListener('change', update);
}

// ---------- Start ----------

async function start() {
  initTabs();
  initPublish();
  for (const where of TABS) $(`${where}-q`).addEventListener('input', () => renderList(where));
  try {
    await load();
  } catch (error) {
    $('catalog-empty').hidden = false;
    $('catalog-empty').textContent = `The stories could not be loaded. ${error.message}`;
  }
  $('stories').dataset.ready = 'true';
}

start();
