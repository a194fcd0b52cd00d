// Magnetic Poetry at /poetry. Everything loads from /api/v1/poetry after the first paint: the word
// sets, the poems (the newest opens; a first visit makes one), and every change saves the whole board
// (debounced; with keepalive when the page goes away; on a version conflict the later save wins).
import { api, toast } from '../js/api.js';
import { Board, DEFAULT_SCALE, FONTS } from './board.js';
import { WordSets } from './wordsets.js';
import { Helpers, lineText } from './helpers.js';
import { $, el, copyText, wordLength } from './dom.js';
import { createRouter, parseView, viewPath } from '../js/router.js';

const API = '/api/v1/poetry';
const PENDING = 'trove.poetry.pending';
const ui = Object.fromEntries([
  'poem-title', 'save-state', 'undo', 'copy-text', 'share', 'board', 'board-bg', 'poem-text', 'announce', 'add-word-form',
  'add-word', 'add-word-error', 'wordset', 'font', 'font-size', 'font-size-value', 'background-input', 'background-error',
  'background-remove', 'download-png', 'png-link', 'publish', 'unpublish', 'publish-box', 'publish-link', 'copy-link',
  'new-poem', 'poems', 'confirm-dialog', 'confirm-title', 'confirm-text', 'confirm-ok',
].map((id) => [id.replace(/-(\w)/g, (_, c) => c.toUpperCase()), $(id)]));

const state = {
  poems: [], // summaries, newest first
  poem: null, // the open poem's fields; its board is board.data
  undo: [],
  dirty: false,
  seq: 0, // counts changes, to tell whether a save covered the latest
  timer: 0,
  running: null, // the save on its way
  offline: false,
  noted: false,
};

function say(message) {
  ui.announce.textContent = '';
  setTimeout(() => { ui.announce.textContent = message; }, 50);
}

function confirmDialog(title, text, ok) {
  ui.confirmTitle.textContent = title;
  ui.confirmText.textContent = text;
  ui.confirmOk.textContent = ok;
  return new Promise((resolve) => {
    ui.confirmDialog.addEventListener('close', () => resolve(ui.confirmDialog.returnValue === 'ok'), { once: true });
    ui.confirmDialog.returnValue = '';
    ui.confirmDialog.showModal();
  });
}

const dates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso) => (Number.isNaN(Date.parse(iso)) ? '' : dates.format(new Date(iso)));
const fail = (error) => toast(error.message);

const board = new Board(ui.board, {
  editable: true,
  onBefore: (key) => remember(key),
  onChange: () => changed(),
  onSelect: (magnet) => helpers.select(magnet),
});
const sets = new WordSets({
  api: API, confirm: confirmDialog, onCreated: (set) => useSet(set.id), onEdited: setEdited, onDeleting: leaveSet, onDeleted: () => sync(),
});
const helpers = new Helpers({ api: API, board, onPick: (word) => addWord(word) });

const currentSet = () => sets.find(board.data && board.data.wordSetId);
const poemText = () => board.rows().map(lineText).join('\n');

/** The controls show the board's word set, font and size. */
function sync() {
  const data = board.data;
  ui.font.value = data.font;
  ui.fontSize.value = String(data.fontScale);
  ui.fontSizeValue.textContent = `${Math.round(data.fontScale * 100)}%`;
  sets.fill(ui.wordset, data.wordSetId);
  ui.undo.disabled = !state.undo.length;
}

// ---------- Undo ----------

/** Keeps the board as it was before a change; changes with one key, close together, are one step. */
function remember(key) {
  if (!board.data) return;
  const now = Date.now();
  const last = state.undo[state.undo.length - 1];
  if (last && key && last.key === key && now - last.at < 1200) {
    last.at = now;
    return;
  }
  state.undo.push({ key, at: now, board: JSON.stringify(board.data) });
  if (state.undo.length > 100) state.undo.shift();
  ui.undo.disabled = false;
}

function undo() {
  const last = state.undo.pop();
  if (!last) return;
  board.load(JSON.parse(last.board));
  sync();
  changed();
  say('Undone');
}

// ---------- Saving ----------

function saveState(kind, message = '') {
  ui.saveState.dataset.state = kind;
  ui.saveState.textContent = { saved: 'Saved', saving: 'Saving…', offline: 'Offline — will save when back', error: 'Not saved' }[kind];
  ui.saveState.title = message;
}

const poemPath = (poem) => `${API}/poems/${encodeURIComponent(poem.id)}`;
const body = (version) => ({ version, title: ui.poemTitle.value.trim(), board: board.data });

/** The unsaved board also waits in localStorage, for when the page closes offline. */
function keep(on = true) {
  try {
    if (on && state.poem) localStorage.setItem(PENDING, JSON.stringify({ id: state.poem.id, ...body(state.poem.version) }));
    else if (!on) localStorage.removeItem(PENDING);
  } catch { /* private mode: the server copy is all there is */ }
}

/** After every change of the board or the title. */
function changed() {
  if (!state.poem) return;
  state.dirty = true;
  state.seq += 1;
  keep();
  if (!state.offline) saveState('saving');
  clearTimeout(state.timer);
  state.timer = setTimeout(saveNow, 300);
  derived();
}

/** What follows from the board: the undo button, the poem as text, the syllable count. */
function derived() {
  ui.undo.disabled = !state.undo.length;
  ui.poemText.textContent = poemText();
  helpers.boardChanged();
}

function took(saved) {
  const poem = state.poem;
  if (!poem || saved.id !== poem.id) return;
  Object.assign(poem, { version: saved.version, updatedAt: saved.updatedAt, title: saved.title });
  const summary = state.poems.find((p) => p.id === poem.id);
  if (summary) Object.assign(summary, { title: saved.title, updatedAt: saved.updatedAt });
  state.poems.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  renderPoems();
}

/** PUT; on a version conflict take the server's version and send this board again: the later save wins. */
async function put(poem, attempt = 0) {
  try {
    return await api('PUT', poemPath(poem), body(poem.version));
  } catch (error) {
    if (error.code !== 'version_conflict' || attempt >= 3) throw error;
    poem.version = (await api('GET', poemPath(poem))).version;
    if (!state.noted) toast('This poem was also changed somewhere else. Your version is kept.');
    state.noted = true;
    return put(poem, attempt + 1);
  }
}

async function saveNow() {
  clearTimeout(state.timer);
  state.timer = 0;
  const poem = state.poem;
  if (!poem || !state.dirty || state.running) return; // a running save sends again when it ends
  state.dirty = false;
  const seq = state.seq;
  let done;
  state.running = new Promise((resolve) => { done = resolve; });
  try {
    took(await put(poem));
    state.offline = false;
    if (seq === state.seq) keep(false);
  } catch (error) {
    if (error.status === 0) {
      state.dirty = state.offline = true;
      saveState('offline');
    } else {
      saveState('error', error.message);
      fail({ message: `Not saved: ${error.message}` });
    }
  } finally {
    state.running = null;
    done();
  }
  if (state.dirty && !state.offline && state.poem === poem) saveNow();
  else if (!state.dirty && !state.offline && ui.saveState.dataset.state !== 'error') saveState('saved');
}

/** The page is hidden or going away: send what is unsaved at once, with keepalive so it outlives the page. */
function flushOnHide() {
  const poem = state.poem;
  if (!poem || !state.dirty) return;
  clearTimeout(state.timer);
  state.timer = 0;
  keep();
  // A save still on its way will have raised the version by one when this one arrives.
  const payload = JSON.stringify(body(state.running ? poem.version + 1 : poem.version));
  if (payload.length > 60000) return void saveNow(); // keepalive bodies are limited to 64 KB
  state.dirty = false;
  const seq = state.seq;
  fetch(poemPath(poem), {
    method: 'PUT', keepalive: true, credentials: 'same-origin', body: payload,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  })
    .then((response) => (response.ok ? response.json() : Promise.reject(response)))
    .then((saved) => {
      took(saved);
      if (seq === state.seq) {
        keep(false);
        if (!state.dirty) saveState('saved');
      }
    })
    .catch(() => {
      state.dirty = true; // the page is still here: save the usual way
      if (document.visibilityState === 'visible') saveNow();
    });
}

/** Waits until the open poem is saved (or offline). */
async function flush() {
  while (state.poem && (state.running || state.dirty) && !state.offline) {
    await (state.running || saveNow());
  }
}

// ---------- Poems ----------

function renderPoems() {
  const current = state.poem && state.poem.id;
  ui.poems.replaceChildren(...state.poems.map((poem) => el('li', { className: 'pm-poem' },
    el('button', { type: 'button', className: 'pm-poem-open', 'data-open': poem.id, 'aria-current': poem.id === current ? 'true' : null },
      el('span', { className: 'pm-poem-title', text: poem.title }),
      el('span', { className: 'pm-muted', text: when(poem.updatedAt) })),
    el('button', { type: 'button', className: 'button quiet', 'data-delete': poem.id, 'aria-label': `Delete “${poem.title}”`, text: 'Delete' }))));
}

function showPoem(poem, data) {
  const { id, title, version, updatedAt, hasBackground, publicId } = poem;
  state.poem = { id, title, version, updatedAt, hasBackground, publicId };
  Object.assign(state, { undo: [], dirty: false, noted: false });
  ui.poemTitle.value = title;
  if (data) board.load(data, { animate: true });
  showBackground();
  showPublished();
  renderPoems();
  sync();
  saveState('saved');
}

async function openPoem(id) {
  await flush();
  const poem = await api('GET', `${API}/poems/${encodeURIComponent(id)}`);
  const data = poem.board;
  // A board whose own word set is gone keeps its words as added words of a built-in set.
  const repaired = !sets.find(data.wordSetId) && Object.assign(data, sets.rehome(data));
  if (!FONTS[data.font]) data.font = 'serif';
  showPoem(poem, data);
  if (restore(poem) || repaired) changed();
  else derived();
}

/** Changes a closed tab could not send (offline) come back, if nobody saved this poem since. */
function restore(poem) {
  let pending = null;
  try { pending = JSON.parse(localStorage.getItem(PENDING) || 'null'); } catch { pending = null; }
  if (!pending || pending.id !== poem.id || pending.version !== poem.version || !sets.find(pending.board && pending.board.wordSetId)) return false;
  if (JSON.stringify(pending.board) === JSON.stringify(poem.board) && pending.title === poem.title) return keep(false), false;
  board.load(pending.board);
  ui.poemTitle.value = pending.title || poem.title;
  sync();
  toast('Your last changes, made offline, are back.');
  return true;
}

// ---------- The open poem is the URL ----------

// '#poem/<id>' names the open poem (js/router.js); no hash opens the newest. Opening another poem or a new
// one pushes a history entry, so Back returns to the poem before; a poem that is not this profile's (a
// link pasted into another browser) opens the newest instead.
const router = createRouter({ onView: (view, how) => how === 'pop' && showFromURL(view).catch(fail) });
const poemView = () => (state.poem ? viewPath('poem', state.poem.id) : '');

async function showFromURL(view) {
  const { name, args: [wanted] } = parseView(view);
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

async function newPoem(focus = false) {
  await flush();
  const set = currentSet() || sets.builtIns()[0];
  board.load({ wordSetId: set.id, font: board.data ? board.data.font : 'serif', fontScale: DEFAULT_SCALE, magnets: [], extraWords: [] });
  board.freshLayout(set.words, { animate: true });
  const poem = await api('POST', `${API}/poems`, { title: 'Untitled poem', board: board.data });
  state.poems.unshift(poem);
  showPoem(poem);
  derived();
  if (focus) ui.poemTitle.select();
}

async function deletePoem(id) {
  const poem = state.poems.find((p) => p.id === id);
  if (!poem || !(await confirmDialog('Delete this poem?', `“${poem.title}” will be gone for good.`, 'Delete'))) return;
  try {
    await api('DELETE', `${API}/poems/${encodeURIComponent(id)}`);
  } catch (error) {
    if (error.status !== 404) return fail(error);
  }
  state.poems = state.poems.filter((p) => p.id !== id);
  if (state.poem && state.poem.id === id) {
    state.poem = null;
    state.dirty = false;
    clearTimeout(state.timer);
    keep(false);
    await (state.poems.length ? openPoem(state.poems[0].id) : newPoem());
    router.go(poemView(), { replace: true, quiet: true }); // the deleted poem's address is gone
  }
  renderPoems();
  say('Poem deleted');
}

// ---------- Words and word sets ----------

/** Adds a magnet for `raw`; answers what is wrong with it, or ''. */
function addWord(raw) {
  const word = String(raw).trim();
  const data = board.data;
  if (!word || wordLength(word) > 40) return 'A word has 1 to 40 characters.';
  if (data.magnets.length >= 400) return 'A board holds at most 400 magnets.';
  const set = currentSet();
  const known = (set && set.words.includes(word)) || data.extraWords.includes(word);
  if (!known && data.extraWords.length >= 200) return 'A board holds at most 200 added words.';
  remember(`add:${Math.random()}`);
  if (!known) data.extraWords.push(word);
  board.add(word);
  changed();
  say(`Added “${word}”`);
  return '';
}

function useSet(id) {
  const set = sets.find(id);
  if (!set || !board.data) return;
  remember('wordset');
  Object.assign(board.data, { wordSetId: set.id, extraWords: [], fontScale: Math.max(board.data.fontScale, DEFAULT_SCALE) });
  board.applyStyle();
  board.freshLayout(set.words, { animate: true });
  sync();
  changed();
  say(`${set.name}: ${set.words.length} words`);
}

/** One of the person's sets changed: the board keeps its magnets, and new words come on as magnets. */
function setEdited(before, after) {
  const data = board.data;
  if (!data || data.wordSetId !== after.id) return sync();
  remember('set-edit');
  for (const word of before.words) {
    if (!after.words.includes(word) && data.magnets.some((m) => m.word === word) && !data.extraWords.includes(word)) data.extraWords.push(word);
  }
  for (const word of after.words) if (!before.words.includes(word)) board.add(word);
  sync();
  changed();
}

/** Before a set is deleted (the server refuses while a poem uses it) this board moves off it. */
async function leaveSet(set) {
  const data = board.data;
  if (!data || data.wordSetId !== set.id) return;
  remember('set-delete');
  Object.assign(data, sets.rehome(data, set));
  board.load(data);
  sync();
  changed();
  await flush();
}

// ---------- Background ----------

function showBackground() {
  const poem = state.poem;
  const on = Boolean(poem && poem.hasBackground);
  ui.backgroundRemove.hidden = ui.boardBg.hidden = !on;
  if (on) ui.boardBg.src = `${poemPath(poem)}/background?t=${Date.now()}`;
  else ui.boardBg.removeAttribute('src');
}

async function uploadBackground(file) {
  const poem = state.poem;
  const error = ui.backgroundError;
  error.textContent = '';
  if (!file || !poem) return;
  if (file.size > 10 * 1024 * 1024) return void (error.textContent = 'That picture is larger than 10 MB. Please choose a smaller one.');
  let response;
  let data = null;
  try {
    response = await fetch(`${poemPath(poem)}/background`, {
      method: 'POST', credentials: 'same-origin', body: file,
      headers: { 'Content-Type': file.type || 'application/octet-stream', Accept: 'application/json' },
    });
    data = await response.json().catch(() => null);
  } catch {
    return void (error.textContent = 'Could not reach Trove. Please try again.');
  }
  if (!response.ok) {
    error.textContent = (data && data.error && data.error.message) || (response.status === 413 ? 'That picture is larger than 10 MB.' : 'That picture could not be used.');
    return;
  }
  if (state.poem !== poem) return;
  poem.hasBackground = true;
  if (data && typeof data.version === 'number' && !state.running) poem.version = data.version;
  showBackground();
  say('Background set');
}

/** After a 204 that may have raised the version. */
async function refreshVersion(poem) {
  const fresh = await api('GET', poemPath(poem)).catch(() => null);
  if (fresh && state.poem === poem && !state.running) poem.version = fresh.version;
}

async function removeBackground() {
  const poem = state.poem;
  try {
    await api('DELETE', `${poemPath(poem)}/background`);
  } catch (error) {
    if (error.status !== 404) return fail(error);
  }
  poem.hasBackground = false;
  showBackground();
  ui.backgroundInput.value = '';
  ui.backgroundInput.focus();
  say('Background removed');
  await refreshVersion(poem);
}

// ---------- Picture and link ----------

/** The board as a PNG (share.js loads when first needed) and that module. */
async function picture() {
  const share = await import('./share.js');
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  return [await share.renderPNG(board.snapshot(), { background: state.poem.hasBackground ? ui.boardBg : null, dark }), share];
}

async function share() {
  const [png, module] = await picture();
  const result = await module.shareOrDownload(png, { title: ui.poemTitle.value.trim() || 'A poem', link: ui.pngLink });
  if (result === 'downloaded') toast('Picture saved as poem.png');
}

function showPublished() {
  const id = state.poem.publicId;
  ui.publish.hidden = Boolean(id);
  ui.unpublish.hidden = ui.publishBox.hidden = !id;
  if (id) ui.publishLink.href = ui.publishLink.textContent = `${location.origin}/poetry/p/${encodeURIComponent(id)}`;
}

async function publish() {
  const poem = state.poem;
  await flush();
  const saved = await api('POST', `${poemPath(poem)}/publish`);
  poem.publicId = saved.publicId;
  if (typeof saved.version === 'number' && !state.running) poem.version = saved.version;
  showPublished();
  toast((await copyText(ui.publishLink.href)) ? 'Published. Link copied.' : 'Published.');
  ui.unpublish.focus();
}

async function unpublish() {
  const poem = state.poem;
  try {
    await api('DELETE', `${poemPath(poem)}/publish`);
  } catch (error) {
    if (error.status !== 404) return fail(error);
  }
  poem.publicId = null;
  showPublished();
  ui.publish.focus();
  say('The link no longer works');
  await refreshVersion(poem);
}

// ---------- Wiring ----------

const on = (node, type, handler) => node.addEventListener(type, (e) => Promise.resolve(handler(e)).catch(fail));

on(ui.undo, 'click', undo);
on(ui.copyText, 'click', async () => {
  const text = poemText();
  ui.poemText.textContent = text;
  toast((await copyText(text)) ? 'Poem copied as text' : text);
});
on(ui.share, 'click', share);
on(ui.downloadPng, 'click', async () => {
  const [png, module] = await picture();
  module.download(png, ui.pngLink);
});
on(ui.publish, 'click', publish);
on(ui.unpublish, 'click', unpublish);
on(ui.copyLink, 'click', async () => toast((await copyText(ui.publishLink.href)) ? 'Link copied' : ui.publishLink.href));

on(ui.poemTitle, 'input', changed);
on(ui.poemTitle, 'change', () => { if (!ui.poemTitle.value.trim()) ui.poemTitle.value = 'Untitled poem'; });
on(ui.poemTitle, 'keydown', (e) => e.key === 'Enter' && ui.poemTitle.blur());
on(ui.addWordForm, 'submit', (e) => {
  e.preventDefault();
  const problem = addWord(ui.addWord.value);
  ui.addWordError.textContent = problem;
  ui.addWord.setAttribute('aria-invalid', String(Boolean(problem)));
  if (!problem) ui.addWord.value = '';
});

on(ui.wordset, 'change', () => useSet(ui.wordset.value));
on(ui.font, 'change', () => {
  remember('font');
  board.data.font = ui.font.value;
  board.applyStyle();
  changed();
});
on(ui.fontSize, 'input', () => {
  remember('size');
  board.data.fontScale = Number(ui.fontSize.value);
  ui.fontSizeValue.textContent = `${Math.round(board.data.fontScale * 100)}%`;
  board.applyStyle();
  changed();
});
on(ui.fontSize, 'change', () => {
  const { width, height } = board.size(); // bigger words must still end inside the board
  for (const m of board.data.magnets) board.move(m, m.x * width, m.y * height);
  changed();
});

on(ui.backgroundInput, 'change', () => uploadBackground(ui.backgroundInput.files && ui.backgroundInput.files[0]));
on(ui.backgroundRemove, 'click', removeBackground);

on(ui.newPoem, 'click', async () => {
  await newPoem(true);
  router.go(poemView());
});
on(ui.poems, 'click', (e) => {
  const open = e.target.closest('[data-open]');
  const remove = e.target.closest('[data-delete]');
  if (open && open.dataset.open !== (state.poem && state.poem.id)) return openPoem(open.dataset.open).then(() => router.go(poemView()));
  if (remove) return deletePoem(remove.dataset.delete);
});

document.addEventListener('keydown', (e) => {
  if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== 'z') return;
  if (e.target.closest && e.target.closest('input, textarea, select, dialog')) return; // their own undo
  e.preventDefault();
  undo();
});

addEventListener('pagehide', flushOnHide);
document.addEventListener('visibilitychange', () => (document.visibilityState === 'hidden' ? flushOnHide() : state.dirty && saveNow()));
addEventListener('online', () => {
  if (!state.offline) return;
  state.offline = false;
  saveState('saving');
  saveNow();
});
// 'online' does not always fire: try again now and then.
setInterval(() => {
  if (state.offline && state.dirty && !state.running) {
    state.offline = false;
    saveNow();
  }
}, 5000);

async function start() {
  await sets.load();
  state.poems = await api('GET', `${API}/poems`);
  router.start();
  await showFromURL(router.view);
  for (const id of ['poemTitle', 'copyText', 'share', 'wordset', 'font', 'fontSize', 'downloadPng', 'publish', 'newPoem']) ui[id].disabled = false;
  ui.board.removeAttribute('aria-busy');
  ui.board.dataset.ready = 'true';
  board.tiltWithDevice();
}

start().catch((error) => {
  saveState('error', error.message);
  ui.saveState.textContent = error.status === 0 ? 'Offline — could not load your poems' : error.message;
});
