// Choose Your Destiny reader: one chapter at a time, choices as buttons, the path kept on the
// server (GET/PUT /api/v1/stories/{id}/progress) so any device of the same profile resumes.
// A story in the library is kept by the service worker; without a connection the reader goes on
// from the place this device last knew, queues its moves in localStorage and sends them when the
// server can be reached again.
import { api, toast } from '../js/api.js';
import { $, make, render, say, confirmDialog } from './dom.js';
import { chooseBody, backBody, rewindBody, restartBody, resumePath, localProgress, queueMove, moveBody, trail, readLine, endingsLine, plural, progressBody, advance, rewindTo, stepBack } from './logic.js';
import { createRouter, parseView, viewPath, viewOf } from '../js/router.js';
import { chapterTree } from './text.js';

const root = $('reader');
const storyId = root.dataset.storyId;
const API = `/api/v1/stories/${encodeURIComponent(storyId)}`;
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

const state = { story: null, chapters: new Map(), path: [], endingsFound: [], saving: false, syncing: false };
const PLACE_KEY = `trove.stories.place.${storyId}`;
const QUEUE_KEY = `trove.stories.pending.${storyId}`;

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
  box.replaceChildren(...(chapter.video_url
    ? [make('video', { src: chapter.video_url, controls: true, playsinline: true, preload: 'none' },
      make('a', { href: chapter.video_url, text: 'Watch the video' }))]
    : []));
}

function choices(chapter) {
  $('choices-box').hidden = chapter.is_ending;
  $('choices').replaceChildren(...chapter.choices.map((choice) => make('li', {},
    make('button', { className: 'st-choice', type: 'button', text: choice.text, dataset: { next: choice.chapter_id }, onclick: () => choose(choice.chapter_id) }))));
}

function ending(chapter) {
  $('ending').hidden = !chapter.is_ending;
  if (!chapter.is_ending) return;
  $('ending-read').textContent = readLine(state.path);
  $('ending-found').textContent = endingsLine(state.endingsFound.length, state.story.ending_count);
}

function drawTrail() {
  const steps = trail(state.path, state.chapters);
  $('trail-box').hidden = steps.length < 2;
  $('trail-count').textContent = plural(steps.length, 'chapter');
  $('trail').replaceChildren(...steps.map((step) => make('li', {}, step.current
    ? make('span', { className: 'st-step is-current', 'aria-current': 'step', text: step.name })
    : make('button', { className: 'st-step', type: 'button', text: step.name, 'aria-label': `Go back to ${step.name}`, onclick: () => rewind(step.index) }))));
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
  ending(chapter);
  drawTrail();
  $('back').disabled = state.path.length < 2;
  $('restart').disabled = state.path.length < 2;
  if (fade && !reducedMotion.matches) {
    article.classList.remove('st-fade');
    void article.offsetWidth; // restart the animation
    article.classList.add('st-fade');
  }
  if (focus) {
    window.scrollTo(0, 0);
    $('chapter-title').focus({ preventScroll: true });
  }
  if (chapter.is_ending) say(`The End. ${readLine(state.path)}.`);
}

// ---------- Moving ----------

async function move(body, { push = true } = {}) {
  if (state.saving) return;
  state.saving = true;
  root.setAttribute('aria-busy', 'true');
  for (const button of root.querySelectorAll('.st-choice, .st-step, #back, #restart, #ending-restart')) button.disabled = true;
  try {
    // Moves made offline go first, in order; while they cannot be sent, this one waits behind them.
    if (queued().length) await sendQueued();
    if (queued().length) throw Object.assign(new Error('offline'), { code: 'network' });
    const progress = await api('PUT', `${API}/progress`, body);
    accept(progress);
    offline(false);
    draw();
    if (push || !popWaiting) settleURL(push); // when Back or Forward came meanwhile, the URL is another entry's
  } catch (error) {
    if (error.code === 'network') {
      moveOffline(body);
      draw();
      if (push || !popWaiting) settleURL(push);
      return;
    }
    toast(error.code === 'invalid_path' ? 'This story changed since you last read it; starting again from your last saved place.' : error.message);
    if (error.code === 'invalid_path') await loadProgress().catch(() => {});
    draw({ focus: false, fade: false });
    if (!popWaiting) settleURL(false);
  } finally {
    state.saving = false;
    root.removeAttribute('aria-busy');
    $('ending-restart').disabled = false;
    if (popWaiting) {
      popWaiting = false;
      returnTo(viewOf(location.hash), history.state && history.state.data);
    }
  }
}

function accept(progress) {
  state.path = resumePath(progress, state.story, state.chapters);
  state.endingsFound = Array.isArray(progress.endings_found) ? progress.endings_found : [];
  remember(PLACE_KEY, { chapter_id: state.path[state.path.length - 1], path: state.path, endings_found: state.endingsFound });
}

// ---------- Offline ----------

function recall(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || 'null');
  } catch {
    return null;
  }
}

function remember(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or a full storage: the reader still works, it only cannot keep the place here.
  }
}

const queued = () => {
  const queue = recall(QUEUE_KEY);
  return Array.isArray(queue) ? queue : [];
};

function offline(on) {
  $('offline-note').hidden = !on;
}

/** Makes the move on this device and queues it for the server. */
function moveOffline(body) {
  const chapter = state.chapters.get(body.chapter_id);
  remember(QUEUE_KEY, queueMove(queued(), body, !!(chapter && chapter.is_ending)));
  accept(localProgress(body, state.chapters, state.endingsFound));
  offline(true);
}

/** Sends the moves made offline, in order; each is an idempotent PUT, so a resend does no harm. */
async function sendQueued() {
  if (state.syncing) return;
  state.syncing = true;
  try {
    let progress = null;
    for (let queue = queued(); queue.length; queue = queued()) {
      try {
        progress = await api('PUT', `${API}/progress`, moveBody(queue[0]));
      } catch (error) {
        if (error.code === 'network') return;
        // The story changed meanwhile and the move no longer fits it: drop it, keep the rest.
      }
      const rest = queued();
      remember(QUEUE_KEY, rest.length > 1 ? rest.slice(1) : null);
    }
    offline(false);
    if (progress && !state.saving) {
      accept(progress);
      draw({ focus: false, fade: false });
    }
  } finally {
    state.syncing = false;
  }
}

/** Asks the service worker to keep this page and story, when the story is in the library. */
function keepForOffline() {
  if (!state.story.in_library || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.ready.then((registration) => {
    if (!registration.active) return;
    registration.active.postMessage({ type: 'trove:keep-story', id: storyId });
    registration.active.postMessage({ type: 'trove:keep', urls: [location.pathname] });
  }).catch(() => {});
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
    ok: 'Restart', cancel: 'Keep reading',
  });
  if (!yes) return;
  await move(restartBody(state.story.start_chapter_id));
}

// ---------- Start ----------

async function loadProgress() {
  if (queued().length) await sendQueued();
  try {
    accept(await api('GET', `${API}/progress`));
    offline(queued().length > 0);
  } catch (error) {
    if (error.code !== 'network') throw error;
    accept(recall(PLACE_KEY) || { path: [] });
    offline(true);
  }
}

async function start() {
  $('back').addEventListener('click', back);
  $('restart').addEventListener('click', restart);
  $('ending-restart').addEventListener('click', restart);
  try {
    state.story = await api('GET', API);
    state.chapters = new Map(state.story.chapters.map((c) => [c.id, c]));
    await loadProgress();
    $('reader-status').hidden = true;
    draw({ focus: false, fade: false });
    keepForOffline();
    router.start();
    // A reload keeps the URL's chapter; a link to a chapter shows it when this reader may be there.
    const wanted = parseView(router.view);
    const path = wanted.name === 'chapter' && wanted.args[0] !== state.path[state.path.length - 1]
      ? pathTo(wanted.args[0], history.state && history.state.data) : null;
    if (path) await move(progressBody(path), { push: false });
    else settleURL(false);
  } catch (error) {
    $('reader-status').textContent = error.status === 404
      ? 'This story is not here any more. It may have been withdrawn.'
      : error.code === 'network'
        ? 'This story cannot be opened without a connection. Stories in your library can be read offline once you have opened the Stories page online.'
        : `The story could not be loaded. ${error.message}`;
  }
  root.dataset.ready = 'true';
}

window.addEventListener('online', () => {
  if (state.story) sendQueued();
});

start();
