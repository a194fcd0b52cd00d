// Choose Your Destiny reader: one chapter at a time, choices as buttons, the path kept on the
// server (GET/PUT /api/v1/stories/{id}/progress) so any device of the same profile resumes.
import { api, toast } from '../js/api.js';
import { $, make, render, say, confirmDialog } from './dom.js';
import { chooseBody, backBody, rewindBody, restartBody, resumePath, trail, readLine, endingsLine, plural } from './logic.js';
import { chapterTree } from './text.js';

const root = $('reader');
const storyId = root.dataset.storyId;
const API = `/api/v1/stories/${encodeURIComponent(storyId)}`;
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

const state = { story: null, chapters: new Map(), path: [], endingsFound: [], saving: false };

const current = () => state.chapters.get(state.path[state.path.length - 1]);

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

async function move(body) {
  if (state.saving) return;
  state.saving = true;
  root.setAttribute('aria-busy', 'true');
  for (const button of root.querySelectorAll('.st-choice, .st-step, #back, #restart, #ending-restart')) button.disabled = true;
  try {
    const progress = await api('PUT', `${API}/progress`, body);
    accept(progress);
    draw();
  } catch (error) {
    toast(error.code === 'invalid_path' ? 'This story changed since you last read it; starting again from your last saved place.' : error.message);
    if (error.code === 'invalid_path') await loadProgress().catch(() => {});
    draw({ focus: false, fade: false });
  } finally {
    state.saving = false;
    root.removeAttribute('aria-busy');
    $('ending-restart').disabled = false;
  }
}

function accept(progress) {
  state.path = resumePath(progress, state.story, state.chapters);
  state.endingsFound = Array.isArray(progress.endings_found) ? progress.endings_found : [];
}

const choose = (next) => move(chooseBody(state.path, next));
const rewind = (index) => move(rewindBody(state.path, index));

async function back() {
  if (state.path.length > 1) await move(backBody(state.path));
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
  accept(await api('GET', `${API}/progress`));
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
  } catch (error) {
    $('reader-status').textContent = error.status === 404
      ? 'This story is not here any more. It may have been withdrawn.'
      : `The story could not be loaded. ${error.message}`;
  }
  root.dataset.ready = 'true';
}

start();
