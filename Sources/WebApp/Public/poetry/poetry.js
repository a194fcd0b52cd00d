// Magnetic Poetry at /poetry: the tray of unused words (tray.js; set and added words less those on the board) and
// the board, the poem (board.js). Loaded from /api/v1/poetry; each change saves the board (save.js).
import { toast } from '../js/api.js';
import { keep, read } from '../js/sync.js';
import { createRouter, parseView, viewPath } from '../js/router.js';
import { Board, DEFAULT_SCALE, FONTS, withAPIKeys } from './board.js';
import { Tray } from './tray.js';
import { WordSets } from './wordsets.js';
import { Saver, SCOPE, UNTITLED, isTemp, pendingPoems, shownTitle } from './save.js';
import { $, announce, confirmDialog, make, scrollBehavior, stylesheet } from './dom.js';
import { formatDateTime } from '../js/time.js';
import { characterCount } from '../js/format.js';

// The modules and styles loaded on demand are kept by the service worker from the first visit, for offline use.
navigator.serviceWorker?.ready.then(
  ({ active }) =>
    active?.postMessage({
      type: 'trove:keep',
      urls: 'board-gestures.js board-gestures.css helpers.js words.css extras.js share.js spelling.js sets.js wordset-editor.js refresh.js style.js typeset.js'
        .split(' ')
        .map((path) => new URL(path, import.meta.url).pathname),
    }),
  () => {},
);

const API = '/api/v1/poetry';
const UNDO = 'trove.poetry.undo';
const UNDO_STEPS = 20;
const ui = Object.fromEntries(
  [
    'poetry-main',
    'poem-title',
    'save-state',
    'undo',
    'copy-text',
    'share',
    'board',
    'board-bg',
    'board-empty',
    'poem-text',
    'announce',
    'add-word-form',
    'add-word',
    'add-word-error',
    'wordset',
    'set-note',
    'edit-sets',
    'font',
    'font-size',
    'font-size-value',
    'background-input',
    'background-error',
    'background-remove',
    'download-png',
    'png-link',
    'publish',
    'unpublish',
    'publish-box',
    'publish-link',
    'copy-link',
    'open-publish',
    'new-poem',
    'poems',
    'tray',
    'tray-empty',
    'share-panel',
    'wordsets-panel',
  ].map((id) => [id.replace(/-(\w)/g, (_, c) => c.toUpperCase()), $(id)]),
);

const state = {
  poems: [], // summaries, newest first
  poem: null, // the open poem's fields; its board is board.data
  undo: [],
  redo: [],
};

const say = (message) => announce('announce', message);
const ask = (title, text, ok) => confirmDialog({ title, text, ok });
const fail = (error) => toast(error.message);

const board = new Board(ui.board, {
  editable: true,
  tray: ui.tray,
  onBefore: (key) => remember(key),
  onChange: () => changed(),
  onSelect: (magnet) => (magnet || helpers) && withHelpers((h) => h.select(magnet)),
});
const tray = new Tray(ui.tray, {
  onTap: (word) => placeWord(word),
  onDrop: (word, x, y) => placeWord(word, { x, y }),
  over: (x, y) => {
    const r = ui.board.getBoundingClientRect();
    return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  },
});
const sets = new WordSets({
  api: API,
  confirm: ask,
  onCreated: (set) => useSet(set.id),
  onEdited: (a, b) => setEdited(a, b),
  onDeleting: (set) => leaveSet(set),
  onDeleted: () => sync(),
});
// The word helpers (rhymes, syllables per line) load with the first word on the board, with their looks (words.css).
let helpers = null;
function withHelpers(work) {
  helpers ??= Promise.all([import('./helpers.js'), stylesheet('words.css')]).then(
    ([{ Helpers }]) => new Helpers({ api: API, board, onPick: (word) => addWord(word) }),
  );
  return helpers.then(work).catch(fail);
}
// Background, picture, copy, the public link and deleting a poem (extras.js) load when first used.
const extras = () => import('./extras.js');
const context = () => ({
  API,
  ui,
  state,
  board,
  saver,
  say,
  fail,
  ask,
  poemPath,
  showBackground,
  showPublished,
  renderPoems,
  forgetUndo,
  openNewest,
  openPoem,
  sets,
  remember,
  keepUndo,
  undo,
  redo,
  changed,
  sync,
  took,
  address: () => router.go(poemView(), { replace: true, quiet: true }),
});
const saver = new Saver({
  base: API,
  body: () => ({ title: ui.poemTitle.value.trim(), board: { ...board.data, aspect: board.aspect() } }),
  onSaved: (saved) => took(saved),
  onState: (kind, message) => saveState(kind, message),
  elsewhere: (name, arg) => import('./elsewhere.js').then((m) => m[name](context(), arg)),
});

const currentSet = () => sets.find(board.data && board.data.word_set_id);

/** The words of the tray: the set's and the added ones, less one for each magnet on the board. */
function trayWords() {
  const data = board.data;
  const set = currentSet();
  const onBoard = new Map();
  for (const m of data.magnets) onBoard.set(m.word, (onBoard.get(m.word) || 0) + 1);
  const words = [];
  for (const word of [...(set ? set.words : []), ...data.extra_words.filter((w) => !(set && set.words.includes(w)))]) {
    const left = onBoard.get(word) || 0;
    if (left) onBoard.set(word, left - 1);
    else words.push(word);
  }
  return words;
}

/** The controls show the board's word set, font and size. */
function sync() {
  const data = board.data;
  ui.font.value = data.font;
  ui.fontSize.value = String(data.font_scale);
  ui.fontSizeValue.textContent = `${Math.round(data.font_scale * 100)}%`;
  $('font-size-note')?.replaceChildren();
  sets.fill(ui.wordset, data.word_set_id);
  styleTray();
  derived();
}

function styleTray() {
  for (const name of Object.keys(FONTS)) ui.tray.classList.toggle(`pm-font-${name}`, name === board.data.font);
  ui.tray.style.setProperty('--pm-scale', String(board.data.font_scale));
  // With the board's width, not its height (which the tray's own height changes); at most 18 px at 100%.
  ui.tray.style.setProperty('--pm-unit', `${Math.min(ui.board.clientWidth / 24, 18)}px`);
}

// ---------- Undo (the last 20 steps, kept on the device so they survive a reload) ----------

function storedUndo() {
  try {
    return JSON.parse(localStorage.getItem(UNDO)) || {};
  } catch {
    return {};
  }
}

function keepUndo() {
  if (!state.poem) return;
  const all = storedUndo();
  delete all[state.poem.id];
  all[state.poem.id] = state.undo.slice(-UNDO_STEPS); // newest last, so the oldest poems go first
  const ids = Object.keys(all);
  for (const id of ids.slice(0, Math.max(0, ids.length - 10))) delete all[id];
  storeUndo(all);
}

function storeUndo(all) {
  try {
    localStorage.setItem(UNDO, JSON.stringify(all));
  } catch {
    /* full or private: undo lasts this visit */
  }
}

/** Keeps the board as it was before a change; changes with one key, close together, are one step. */
function remember(key) {
  if (!board.data) return;
  state.redo = [];
  const now = Date.now();
  const last = state.undo[state.undo.length - 1];
  if (last && key && last.key === key && now - last.at < 1200) {
    last.at = now;
    return;
  }
  state.undo.push({ key, at: now, board: JSON.stringify(board.data) });
  if (state.undo.length > UNDO_STEPS) state.undo.shift();
  ui.undo.disabled = false;
  keepUndo();
}

// Undo and Redo themselves load with the first Undo.
const undo = () => extras().then((m) => m.undo(context()));
const redo = () => extras().then((m) => m.redo(context()));

// ---------- Saving ----------

function saveState(kind, message = '') {
  ui.saveState.dataset.state = kind;
  ui.saveState.textContent = { saved: 'Saved', saving: 'Saving…', offline: 'Offline — will save when back', error: 'Not saved' }[kind];
  ui.saveState.title = message;
}

/** After every change of the board or the title. */
function changed() {
  if (!state.poem) return;
  saver.changed();
  derived();
}

/** What follows from the board: the tray, the undo button, the poem as text, the syllable count. */
function derived() {
  ui.undo.disabled = !state.undo.length;
  const words = trayWords();
  tray.show(words);
  ui.trayEmpty.hidden = words.length > 0;
  ui.boardEmpty.hidden = board.data.magnets.length > 0;
  if (board.data.magnets.length || helpers) withHelpers((h) => h.boardChanged());
}

function took(saved) {
  const poem = state.poem;
  if (!poem || saved.id !== poem.id) return;
  Object.assign(poem, { version: saved.version, updated_at: saved.updated_at, title: saved.title });
  const summary = state.poems.find((p) => p.id === poem.id);
  if (summary) Object.assign(summary, { title: saved.title, updated_at: saved.updated_at });
  state.poems.sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1));
  renderPoems();
}

// ---------- Poems ----------

function renderPoems() {
  // The list as shown is the copy a start reads while changes wait (js/sync.js, read): the copy from before a poem
  // was made here said there was none, and a start with a nudge waiting made a new, empty poem instead of opening it.
  keep(`${API}/poems`, state.poems);
  const current = state.poem && state.poem.id;
  ui.poems.replaceChildren(
    ...state.poems.map((poem) =>
      make(
        'li',
        { className: 'pm-poem' },
        make(
          'button',
          { type: 'button', className: 'pm-poem-open', 'data-open': poem.id, 'aria-current': poem.id === current ? 'true' : null },
          make('span', { className: 'pm-poem-title', text: poem.title || UNTITLED }),
          make('span', { className: 'pm-muted', text: isTemp(poem.id) ? 'On this device, not sent yet' : formatDateTime(poem.updated_at) }),
        ),
        make('button', {
          type: 'button',
          className: 'button quiet',
          'data-delete': poem.id,
          'aria-label': `Delete “${poem.title}”`,
          text: 'Delete',
        }),
      ),
    ),
  );
}

/** Opening a poem, a new poem or another word set brings the writing surface into view. */
function toBoard() {
  const top = ui.poetryMain.getBoundingClientRect().top;
  if (top < 0 || top > innerHeight / 3) ui.poetryMain.scrollIntoView({ block: 'start' });
}

function showPoem(poem, data) {
  const { id, title, version, updated_at, has_background, public_id } = poem;
  state.poem = { id, title, version, updated_at, has_background, public_id };
  state.undo = storedUndo()[id] || [];
  state.redo = [];
  ui.poemTitle.value = shownTitle(title);
  ui.setNote.hidden = true;
  saver.open(state.poem);
  board.load(data, { animate: true });
  showBackground();
  showPublished();
  renderPoems();
  sync();
  closeSheets();
  toBoard();
}

async function openPoem(id) {
  await state.setting;
  await saver.flush();
  const pending = (await pendingPoems(API)).get(id);
  const poem = isTemp(id)
    ? { id, version: 1, title: pending?.title, board: pending?.board }
    : await read(`${API}/poems/${encodeURIComponent(id)}`, SCOPE);
  if (!poem || !poem.board) throw Object.assign(new Error('That poem is not here.'), { status: 404 });
  // Saves still waiting in the outbox are newer than the server's copy.
  if (pending) Object.assign(poem, { title: pending.title ?? poem.title, board: pending.board ?? poem.board });
  const data = withAPIKeys(poem.board);
  // A board whose own word set is gone keeps its words as added words of a built-in set.
  const repaired = !sets.find(data.word_set_id) && Object.assign(data, sets.rehome(data));
  if (!FONTS[data.font]) data.font = 'serif';
  showPoem(poem, data);
  if (repaired) changed();
}

// ---------- The open poem is the URL ----------

// '#poem/<id>' names the open poem (js/router.js); no hash opens the newest; another profile's poem, the newest.
const router = createRouter({ onView: (view, how) => how === 'pop' && showFromURL(view).catch(fail) });
const poemView = () => (state.poem ? viewPath('poem', state.poem.id) : '');

async function showFromURL(view) {
  const {
    name,
    args: [wanted],
  } = parseView(view);
  if (name === 'poem' && wanted && state.poem && state.poem.id === wanted) return;
  let opened = false;
  if (name === 'poem' && wanted) {
    try {
      await openPoem(wanted);
      opened = true;
    } catch (error) {
      if (error.status !== 404) throw error;
      toast('That poem is not one of yours here, so your newest one is open.');
    }
  }
  if (!opened) {
    const newest = state.poems[0];
    if (!newest) await newPoem();
    else if (!state.poem || state.poem.id !== newest.id) await openPoem(newest.id);
  }
  router.go(poemView(), { replace: true, quiet: true });
}

/** A new poem: an empty board and a full tray (the word set and font of the poem before). */
async function newPoem(focus = false) {
  await state.setting;
  await saver.flush();
  const set = currentSet() || sets.builtIns()[0];
  const data = {
    word_set_id: set.id,
    font: board.data ? board.data.font : 'serif',
    font_scale: board.data ? board.data.font_scale : DEFAULT_SCALE,
    magnets: [],
    extra_words: [],
  };
  const poem = await saver.create(UNTITLED, data);
  state.poems.unshift(poem);
  showPoem(poem, data);
  if (focus) ui.poemTitle.select();
}

/** After the open poem was deleted (extras.js): the newest left opens, or a new one, at an address of its own. */
async function openNewest() {
  await (state.poems.length ? openPoem(state.poems[0].id) : newPoem());
  router.go(poemView(), { replace: true, quiet: true });
}

function forgetUndo(id) {
  const all = storedUndo();
  delete all[id];
  storeUndo(all);
}

// A poem made on this device got its id from the server (the outbox rewrote its waiting saves and the address).
addEventListener('trove:sync-id', ({ detail }) => {
  if (detail.scope !== SCOPE) return;
  for (const poem of state.poems) if (poem.id === detail.temp) poem.id = detail.id;
  const set = sets.find(detail.temp);
  if (set) {
    set.id = detail.id;
    sets.keepList();
  }
  if (board.data && board.data.word_set_id === detail.temp) board.data.word_set_id = detail.id;
  if (state.poem && state.poem.id === detail.temp) {
    const steps = storedUndo()[detail.temp];
    state.poem.id = detail.id;
    saver.poem.id = detail.id;
    if (steps) keepUndo();
  }
  renderPoems();
  sync();
});

// ---------- Words and word sets ----------

/** Puts `word` from the tray on the board: at `at` (client px, its top-left corner) or next to the last word placed. */
function placeWord(word, at = null) {
  const data = board.data;
  if (!data || data.magnets.length >= 400) return toast('A board holds at most 400 magnets.');
  remember(`add:${Math.random()}`);
  const r = ui.board.getBoundingClientRect();
  const top = r.top + ui.board.clientTop;
  const point = at && { x: at.x - r.left - ui.board.clientLeft, y: at.y - top };
  // In sight: not under the open sheet nor below the screen (a word above it is scrolled to: Board#reveal).
  const sheet = document.querySelector('.pm-sheet:not([hidden])')?.getBoundingClientRect().top ?? Infinity;
  board.add(word, point, { bottom: Math.min(sheet, visualViewport?.height ?? innerHeight) - top });
  changed();
  say(`“${word}” is on the board`);
}

/** Adds a word typed or picked from the helpers: from the tray if it is there, else as an added word. Answers what is wrong, or ''. */
function addWord(raw) {
  const word = String(raw).trim();
  const data = board.data;
  if (!word || characterCount(word) > 40) return 'A word has 1 to 40 characters.';
  if (data.magnets.length >= 400) return 'A board holds at most 400 magnets.';
  const set = currentSet();
  const known = (set && set.words.includes(word)) || data.extra_words.includes(word);
  if (!known && data.extra_words.length >= 200) return 'A board holds at most 200 added words.';
  if (!known) data.extra_words.push(word);
  placeWord(word);
  return '';
}

// Changing the word set (sets.js) loads when first used; a poem opened or made meanwhile waits for it.
const setChange =
  (name) =>
  (...args) =>
    (state.setting = import('./sets.js').then((m) =>
      m[name]({ board, ui, sets, saver, currentSet, remember, sync, changed, toBoard, say }, ...args),
    ));
const useSet = setChange('useSet');
const setEdited = setChange('setEdited');
const leaveSet = setChange('leaveSet');

// ---------- Sheets: the controls over the board, opened from the bar ----------

const sheetButtons = [...document.querySelectorAll('.pm-bar [data-sheet]')];

let sheetLayer = null; // Back closes an open sheet (../js/layers.js)

function openSheet(id) {
  let shown = false;
  for (const button of sheetButtons) {
    const open = button.dataset.sheet === id && button.getAttribute('aria-expanded') !== 'true';
    shown ||= open;
    button.setAttribute('aria-expanded', String(open));
    $(button.dataset.sheet).hidden = !open;
    if (open) $(button.dataset.sheet).querySelector('input, select, button:not([data-close])')?.focus({ preventScroll: true });
  }
  if (!shown) return closeSheets();
  sheetLayer ??= import('../js/layers.js').then((m) => sheetLayer && m.openLayer({ close: closeSheets, isOpen: () => !!sheetLayer }));
}

function closeSheets() {
  for (const button of sheetButtons) {
    button.setAttribute('aria-expanded', 'false');
    $(button.dataset.sheet).hidden = true;
  }
  sheetLayer?.then((l) => l?.closed());
  sheetLayer = null;
}

/** Opens a panel below the board (word sets, the public link) and scrolls to it. */
function showPanel(panel) {
  closeSheets();
  panel.open = true;
  panel.scrollIntoView({ block: 'start', behavior: scrollBehavior() });
  panel.querySelector('summary').focus({ preventScroll: true });
}

// ---------- Background ----------

const poemPath = (poem) => `${API}/poems/${encodeURIComponent(poem.id)}`;

function showBackground() {
  const poem = state.poem;
  const on = Boolean(poem && poem.has_background);
  ui.backgroundRemove.hidden = ui.boardBg.hidden = !on;
  if (on) ui.boardBg.src = `${poemPath(poem)}/background?t=${Date.now()}`;
  else ui.boardBg.removeAttribute('src');
}

function showPublished() {
  const id = state.poem.public_id;
  ui.publish.hidden = Boolean(id);
  ui.unpublish.hidden = ui.publishBox.hidden = !id;
  if (id) ui.publishLink.href = ui.publishLink.textContent = `${location.origin}/poetry/p/${encodeURIComponent(id)}`;
}

// ---------- Wiring ----------

const on = (node, type, handler) => node.addEventListener(type, (e) => Promise.resolve(handler(e)).catch(fail));

on(ui.undo, 'click', undo);
for (const button of sheetButtons) on(button, 'click', () => openSheet(button.dataset.sheet));
document.querySelectorAll('.pm-sheet [data-close]').forEach((button) =>
  on(button, 'click', () => {
    const opener = sheetButtons.find((b) => b.dataset.sheet === button.closest('.pm-sheet').id);
    closeSheets();
    opener?.focus();
  }),
);
on(document.querySelector('.pm-stage'), 'keydown', (e) => {
  if (e.key !== 'Escape' || !e.target.closest('.pm-sheet')) return;
  const opener = sheetButtons.find((b) => b.dataset.sheet === e.target.closest('.pm-sheet').id);
  closeSheets();
  opener?.focus();
});
const later =
  (name) =>
  async (...args) =>
    (await extras())[name](context(), ...args);
on(ui.copyText, 'click', later('copyPoem'));
on(ui.share, 'click', later('share'));
on(ui.downloadPng, 'click', later('download'));
on(ui.openPublish, 'click', () => showPanel(ui.sharePanel));
on(ui.editSets, 'click', () => showPanel(ui.wordsetsPanel));
on(ui.publish, 'click', later('publish'));
on(ui.unpublish, 'click', later('unpublish'));
on(ui.copyLink, 'click', later('copyLink'));

on(ui.poemTitle, 'input', changed);
on(ui.poemTitle, 'keydown', (e) => e.key === 'Enter' && ui.poemTitle.blur());
on(ui.addWordForm, 'submit', (e) => {
  e.preventDefault();
  const problem = addWord(ui.addWord.value);
  ui.addWordError.textContent = problem;
  ui.addWord.setAttribute('aria-invalid', String(Boolean(problem)));
  if (!problem) ui.addWord.value = '';
});

on(ui.wordset, 'change', () => useSet(ui.wordset.value));
// Font and size: style.js, loaded when first changed.
const restyle = (name) => () => import('./style.js').then((m) => m[name]({ board, ui, remember, sync, changed }));
on(ui.font, 'change', restyle('font'));
on(ui.fontSize, 'input', restyle('size'));

on(ui.backgroundInput, 'change', () => later('uploadBackground')(ui.backgroundInput.files && ui.backgroundInput.files[0]));
on(ui.backgroundRemove, 'click', later('removeBackground'));

on(ui.newPoem, 'click', async () => {
  await newPoem(true);
  router.go(poemView());
});
on(ui.poems, 'click', (e) => {
  const open = e.target.closest('[data-open]');
  const remove = e.target.closest('[data-delete]');
  if (open && open.dataset.open !== (state.poem && state.poem.id)) return openPoem(open.dataset.open).then(() => router.go(poemView()));
  if (remove) return later('deletePoem')(remove.dataset.delete);
});

document.addEventListener('keydown', (e) => {
  const key = e.key.toLowerCase();
  if (!(e.ctrlKey || e.metaKey) || e.altKey || (key !== 'z' && key !== 'y')) return;
  if (e.target.closest && e.target.closest('input, textarea, select, dialog')) return; // their own undo
  e.preventDefault();
  (key === 'y' || e.shiftKey ? redo : undo)();
});

// Coming back: the open poem as another tab or device left it meanwhile (refresh.js).
const refresh = () =>
  board.data &&
  !saver.dirty &&
  !saver.running &&
  import('./refresh.js')
    .then(
      (m) => m.refresh(context()),
      () => {},
    )
    .catch(fail);
addEventListener('pagehide', () => saver.leaving());
addEventListener('focus', refresh);
document.addEventListener('visibilitychange', () =>
  document.visibilityState === 'hidden' ? saver.leaving() : saver.dirty ? saver.saveNow() : refresh(),
);

/** The app's column fills the screen below the header: tray, board and bar all in view. */
function fitToScreen() {
  const top = ui.poetryMain.getBoundingClientRect().top + scrollY;
  ui.poetryMain.style.setProperty('--pm-top', `${Math.round(top)}px`);
  if (board.data) styleTray();
}
new ResizeObserver(fitToScreen).observe(document.querySelector('.site-header'));
addEventListener('resize', fitToScreen);
fitToScreen();

async function start() {
  await saver.sendLeft();
  fitToScreen(); // to the header with its sync indicator (js/sync.js), before the board is drawn: WebKit may tell late
  await sets.load();
  const pending = await pendingPoems(API);
  state.poems = await read(`${API}/poems`, SCOPE);
  // Saves waiting in the outbox are newer than the list kept: a poem renamed offline is listed by its new title.
  for (const [id, poem] of pending) {
    const listed = state.poems.find((p) => p.id === id);
    if (listed) listed.title = poem.title ?? listed.title;
    else if (poem.created) state.poems.unshift({ id, title: poem.title, version: 1, updated_at: new Date().toISOString() });
  }
  router.start();
  await showFromURL(router.view);
  for (const id of ['poemTitle', 'copyText', 'share', 'wordset', 'font', 'fontSize', 'downloadPng', 'publish', 'newPoem'])
    ui[id].disabled = false;
  ui.board.removeAttribute('aria-busy');
  ui.board.dataset.ready = 'true';
}

start().catch((error) => {
  saveState('error', error.message);
  ui.saveState.textContent = error.status === 0 ? 'Offline — could not load your poems' : error.message;
});
