// Choose Your Destiny reader: one chapter at a time, choices as buttons, the path kept on the
// server (GET/PUT /api/v1/stories/{id}/progress) so any device of the same profile resumes.
// A story in the library is kept by the service worker; without a connection the reader goes on
// from the place this device last knew (the device's copy, js/sync.js) and its moves wait in the one
// outbox (js/outbox.js), sent in order when the server can be reached again.
// Opening a story to read it puts it in the library (the original app downloaded it there).
import { api, toast } from '../js/api.js';
import { keep, kept, send, waiting } from '../js/sync.js';
import { $, make, render, say, confirmDialog } from './dom.js';
import {
  chooseBody,
  backBody,
  rewindBody,
  restartBody,
  resumePath,
  localProgress,
  moveOptions,
  placeCopy,
  visitedAfter,
  readLine,
  progressBody,
  advance,
  rewindTo,
  stepBack,
} from './logic.js';
import { createRouter, parseView, viewPath, viewOf } from '../js/router.js';
import { chapterTree } from './text.js';
import { drawEnding, drawTrail, turnPage, holdMoves, releaseMoves } from './chapter.js';

const root = $('reader');
const storyId = root.dataset.storyId;
const API = `/api/v1/stories/${encodeURIComponent(storyId)}`;

const state = { story: null, chapters: new Map(), path: [], endingsFound: [], visited: [], saving: false };
const PROGRESS = `${API}/progress`; // also the key of the device's copy of the place
const VISITED_KEY = `stories:visited:${storyId}`; // every chapter this device has shown (for the map)

const current = () => state.chapters.get(state.path[state.path.length - 1]);

// ---------- The chapter is the URL ----------

// '#chapter/<id>' names the chapter shown (js/router.js). Each move pushes a history entry that keeps the
// path it made, so Back returns to the previous chapter (the path of then is sent again as the reader's
// place) and Forward comes back. A chapter link from elsewhere opens it when this reader's path passed
// it or it is one of the current chapter's choices; otherwise the reader's own place shows (the story's
// choices are the reader's to make).
const router = createRouter({ onView: (view, how, data) => how === 'pop' && returnTo(view, data) });
const chapterView = () => viewPath('chapter', state.path[state.path.length - 1]);
let popWaiting = false; // Back or Forward came while a move was being saved

/** After a move: its chapter in the URL, a new entry unless the URL already named it (Back, Forward). */
function settleURL(push) {
  const here = (history.state && history.state.data) || {};
  router.go(chapterView(), { replace: !push, quiet: true, data: { path: [...state.path], from: push ? here.path : here.from } });
}

/** The path that shows chapter `target`: the entry's own, the current path cut back, or one choice on. */
function pathTo(target, data) {
  const path = data && Array.isArray(data.path) ? data.path : null;
  if (path && path[path.length - 1] === target) {
    const walk = resumePath({ chapter_id: target, path }, state.story, state.chapters);
    if (walk.length === path.length) return walk;
  }
  const index = state.path.lastIndexOf(target);
  if (index >= 0) return rewindTo(state.path, index);
  if (current().choices.some((choice) => choice.chapter_id === target)) return advance(state.path, target);
  return null;
}

function returnTo(view, data) {
  if (!state.story) return;
  if (state.saving) {
    popWaiting = true;
    return;
  }
  const { name, args } = parseView(view);
  const target = name === 'chapter' ? args[0] : null;
  if (target === state.path[state.path.length - 1]) return;
  const path = target && pathTo(target, data);
  if (path) move(progressBody(path), { push: false });
  else settleURL(false);
}

// ---------- Drawing ----------

function picture(chapter) {
  const box = $('picture');
  if (!chapter.picture_url) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  box.classList.remove('is-loaded');
  const img = make('img', { src: chapter.picture_url, alt: '', loading: 'lazy', decoding: 'async', width: 800, height: 500 });
  img.addEventListener('load', () => box.classList.add('is-loaded'), { once: true });
  img.addEventListener('error', () => box.classList.add('is-broken'), { once: true });
  box.replaceChildren(img);
}

function video(chapter) {
  const box = $('video');
  box.hidden = !chapter.video_url;
  box.replaceChildren(
    ...(chapter.video_url
      ? [
          make(
            'video',
            { src: chapter.video_url, controls: true, playsinline: true, preload: 'none' },
            make('a', { href: chapter.video_url, text: 'Watch the video' }),
          ),
        ]
      : []),
  );
}

function choices(chapter) {
  $('choices-box').hidden = chapter.is_ending;
  $('choices').replaceChildren(
    ...chapter.choices.map((choice) =>
      make(
        'li',
        {},
        make('button', {
          className: 'st-choice',
          type: 'button',
          text: choice.text,
          dataset: { next: choice.chapter_id },
          onclick: () => choose(choice.chapter_id),
        }),
      ),
    ),
  );
}

function draw({ focus = true, fade = true } = {}) {
  const chapter = current();
  const article = $('chapter');
  article.hidden = false;
  root.dataset.chapter = chapter.id;
  picture(chapter);
  $('chapter-title').textContent = chapter.name || state.story.name;
  const tree = chapterTree(chapter.paragraphs && chapter.paragraphs.length ? chapter.paragraphs : chapter.text);
  $('chapter-text').replaceChildren(...render(tree));
  video(chapter);
  choices(chapter);
  drawEnding(chapter.is_ending, state.path, state.endingsFound, state.story.ending_count, state.chapters);
  drawTrail(state.path, state.chapters, rewind);
  $('back').disabled = state.path.length < 2;
  $('restart').disabled = state.path.length < 2;
  turnPage(article, { focus, fade });
  if (chapter.is_ending) say(`The End. ${readLine(state.path)}.`);
}

// ---------- Moving ----------

async function move(body, { push = true } = {}) {
  if (state.saving) return;
  state.saving = true;
  holdMoves(root);
  try {
    // Sent at once when nothing waits; else (or without an answer) queued behind the moves made offline.
    const chapter = state.chapters.get(body.chapter_id);
    const answer = await send('PUT', PROGRESS, body, moveOptions(storyId, state.story.name, body, !!(chapter && chapter.is_ending)));
    if (answer.queued) accept(localProgress(body, state.chapters, state.endingsFound));
    else accept(answer.data);
    offline(!!answer.queued);
    draw();
    if (push || !popWaiting) settleURL(push); // when Back or Forward came meanwhile, the URL is another entry's
  } catch (error) {
    toast(
      error.code === 'invalid_path'
        ? 'This story changed since you last read it; starting again from your last saved place.'
        : error.message,
    );
    if (error.code === 'invalid_path') await loadProgress().catch(() => {});
    draw({ focus: false, fade: false });
    if (!popWaiting) settleURL(false);
  } finally {
    state.saving = false;
    releaseMoves(root);
    if (popWaiting) {
      popWaiting = false;
      returnTo(viewOf(location.hash), history.state && history.state.data);
    }
  }
}

function accept(progress) {
  state.path = resumePath(progress, state.story, state.chapters);
  state.endingsFound = Array.isArray(progress.endings_found) ? progress.endings_found : [];
  const place = placeCopy(
    { chapter_id: state.path[state.path.length - 1], path: state.path, endings_found: state.endingsFound },
    state.chapters,
  );
  keep(PROGRESS, place);
  state.visited = visitedAfter(state.visited, { ...progress, path: state.path });
  keep(VISITED_KEY, state.visited);
}

// ---------- Offline ----------

function offline(on) {
  $('offline-note').hidden = !on;
}

/** Once the outbox has sent this app's moves, or the connection is back, the server's place is the reader's (unless
 * a move is under way). */
async function refresh() {
  if (!state.story || state.story.interactive || state.saving) return;
  if (await waiting('stories')) return;
  try {
    accept(await api('GET', PROGRESS));
    offline(false);
    draw({ focus: false, fade: false });
    settleURL(false);
  } catch {
    // The server went away again: the device's place stands.
  }
}

/** Asks the service worker to keep this page and story, when the story is in the library. */
function keepForOffline() {
  if (!state.story.in_library || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.ready
    .then((registration) => {
      if (!registration.active) return;
      registration.active.postMessage({ type: 'trove:keep-story', id: storyId });
      registration.active.postMessage({ type: 'trove:keep', urls: [location.pathname] });
    })
    .catch(() => {});
}

const choose = (next) => move(chooseBody(state.path, next));
const rewind = (index) => move(rewindBody(state.path, index));

/** The in-app Back: Back in the browser's history when the entry before is the chapter before, else a move. */
async function back() {
  if (state.path.length < 2) return;
  const from = history.state && history.state.data && history.state.data.from;
  const before = stepBack(state.path);
  if (Array.isArray(from) && from.join('\n') === before.join('\n')) history.back();
  else await move(backBody(state.path));
}

async function restart() {
  const yes = await confirmDialog({
    title: 'Restart the story?',
    text: 'You go back to the first chapter. Endings you found stay found.',
    ok: 'Restart',
    cancel: 'Keep reading',
  });
  if (!yes) return;
  await move(restartBody(state.story.start_chapter_id));
}

// ---------- Start ----------

async function loadProgress() {
  state.visited = (await kept(VISITED_KEY)) || [];
  // The server's place; this device's copy while moves made here wait for the server or it cannot be reached.
  const waits = (await waiting('stories')) > 0;
  let progress = null;
  let reached = true;
  if (!waits) {
    try {
      progress = await api('GET', PROGRESS);
    } catch (error) {
      if (error.status) throw error;
      reached = false;
    }
  }
  accept(progress || (await kept(PROGRESS)) || { path: [] });
  offline(waits || !reached);
}

/** Reading a story from the catalog adds it to the library (and so keeps it for reading offline). */
async function addToLibrary() {
  if (state.story.in_library) return;
  try {
    await api('PUT', `${API}/library`);
    state.story.in_library = true;
  } catch {
    // Offline or refused: it can still be read now, and added from the catalog.
  }
}

/** An interactive story (variables and conditions) is played by the server, step by step (play.js). */
async function startInteractive() {
  const { startPlay } = await import('./play.js');
  await startPlay({
    root,
    story: state.story,
    api: API,
    show: (chapter) => {
      picture(chapter);
      video(chapter);
    },
  });
  await addToLibrary();
  keepForOffline();
}

async function start() {
  try {
    state.story = await api('GET', API);
    if (state.story.interactive) {
      await startInteractive();
      root.dataset.ready = 'true';
      return;
    }
    $('back').addEventListener('click', back);
    $('restart').addEventListener('click', restart);
    $('ending-restart').addEventListener('click', restart);
    state.chapters = new Map(state.story.chapters.map((c) => [c.id, c]));
    await loadProgress();
    $('reader-status').hidden = true;
    draw({ focus: false, fade: false });
    await addToLibrary();
    keepForOffline();
    router.start();
    // A reload keeps the URL's chapter; a link to a chapter shows it when this reader may be there.
    const wanted = parseView(router.view);
    const path =
      wanted.name === 'chapter' && wanted.args[0] !== state.path[state.path.length - 1]
        ? pathTo(wanted.args[0], history.state && history.state.data)
        : null;
    if (path) await move(progressBody(path), { push: false });
    else settleURL(false);
  } catch (error) {
    $('reader-status').textContent =
      error.status === 404
        ? 'This story is not here any more. It may have been withdrawn.'
        : error.code === 'network'
          ? 'This story cannot be opened without a connection. Stories in your library can be read offline once you have opened the Stories page online.'
          : `The story could not be loaded. ${error.message}`;
  }
  root.dataset.ready = 'true';
}

addEventListener('trove:synced', (event) => event.detail.scopes.includes('stories') && refresh());
addEventListener('online', refresh);
// Gone offline while reading: the note says so at once, not only after the next choice.
addEventListener('offline', () => state.story && !state.story.interactive && offline(true));

start();
