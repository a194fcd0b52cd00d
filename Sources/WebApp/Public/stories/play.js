// Choose Your Destiny, interactive stories (Twine stories with variables and conditions): the server plays the
// story (GET /api/v1/stories/{id}/play for the reader's place, POST {"choice": i} or {"step": k}) and keeps the
// place, the variables and the endings found; this view shows each step it answers.
// Each step is a history entry '#chapter/<passage>/<step>' keeping {trail, choices, from}: Back rewinds to the
// step before (the variables as they were there), Forward takes the same choices again, a reload asks the
// server for the place. The variables live on the server, so without a connection the story cannot go on:
// the reader says so and shows the last passage this device read.
import { api, toast } from '../js/api.js';
import { keep, kept } from '../js/sync.js';
import { $, make, render, say, confirmDialog } from './dom.js';
import { createRouter, parseView, viewPath, viewOf } from '../js/router.js';
import { chapterTree } from './text.js';
import { drawEnding, drawTrail, turnPage, holdMoves, releaseMoves } from './chapter.js';
import { readLine, visitedAfter, isPlayStep, playPlace, playMove, choicesAfter, playPlaceCopy, playOfflineLine } from './logic.js';

const STOPPED = 'The story stopped here: its passages kept sending you on without end. Go back a step or restart.';

/**
 * Plays `story` (its JSON, with `interactive: true`) in the reader `root`. `show` draws a chapter's picture and
 * video as the reader does. Resolves once the first step is drawn (or the reader said why it cannot be).
 */
export async function startPlay({ root, story, api: API, show }) {
  const PLAY = `${API}/play`; // also the key of the device's copy of the last step read
  const PROGRESS = `${API}/progress`; // the device's copy of the place in the library's shape (for its cards)
  const VISITED_KEY = `stories:visited:${root.dataset.storyId}`; // as the reader and the map name it
  const chapters = new Map(story.chapters.map((c) => [c.id, c]));

  let now = null; // the step shown: the server's last answer (or the device's copy offline)
  let choices = []; // the choice indexes that made now.trail, when known
  let visited = [];
  let saving = false;
  let popWaiting = false; // Back or Forward came while a step was being asked for

  const router = createRouter({ onView: (view, how, data) => how === 'pop' && returnTo(view, data) });

  // ---------- The step is the URL ----------

  const stepView = () => viewPath('chapter', now.passage, now.step);
  const entryData = () => (history.state && history.state.data) || {};

  function settleURL(push) {
    const here = entryData();
    router.go(stepView(), {
      replace: !push,
      quiet: true,
      data: { trail: [...now.trail], choices: [...choices], from: push ? here.trail : here.from },
    });
  }

  function returnTo(view, data) {
    if (!now) return;
    if (saving) {
      popWaiting = true;
      return;
    }
    const { name, args } = parseView(view);
    const plan = name === 'chapter' ? playMove(now, playPlace(args), data) : { kind: 'here' };
    if (plan.kind === 'stay') settleURL(false);
    else if (plan.kind === 'rewind') move({ step: plan.step }, { push: false });
    else if (plan.kind === 'replay') replay(plan);
    else settleURL(false);
  }

  // ---------- Drawing ----------

  function drawChoices() {
    const list = now.choices;
    $('choices-box').hidden = !list.length;
    $('choices').replaceChildren(
      ...list.map((choice) =>
        make(
          'li',
          {},
          make('button', {
            className: 'st-choice',
            type: 'button',
            text: choice.text,
            dataset: { index: String(choice.index) },
            onclick: () => choose(choice.index),
          }),
        ),
      ),
    );
  }

  function draw({ focus = true, fade = true } = {}) {
    const chapter = chapters.get(now.passage) || { id: now.passage, name: now.passage };
    const article = $('chapter');
    article.hidden = false;
    root.dataset.chapter = now.passage;
    root.dataset.step = String(now.step);
    show(chapter);
    $('chapter-title').textContent = chapter.name || now.passage;
    const tree = chapterTree(Array.isArray(now.paragraphs) ? now.paragraphs : []);
    const nodes = render(tree);
    if (now.stopped) nodes.push(make('p', { className: 'note', text: STOPPED }));
    $('chapter-text').replaceChildren(...nodes);
    drawChoices();
    const found = Array.isArray(now.endings_found) ? now.endings_found : [];
    drawEnding(now.is_ending, now.trail, found, story.ending_count, chapters);
    drawTrail(now.trail, chapters, (step) => move({ step }));
    $('back').disabled = now.step < 1;
    $('restart').disabled = now.step < 1;
    turnPage(article, { focus, fade });
    if (now.is_ending) say(`The End. ${readLine(now.trail)}.`);
  }

  function offline(on, hasPlace = true) {
    const note = $('offline-note');
    note.hidden = !on;
    if (on) note.textContent = playOfflineLine(hasPlace);
  }

  // ---------- Moving ----------

  function accept(answer, taken) {
    choices = now ? choicesAfter(choices, now.trail, answer, taken) : choicesAfter(entryChoices(answer), answer.trail, answer, null);
    now = answer;
    keep(PLAY, answer);
    keep(PROGRESS, playPlaceCopy(answer, chapters));
    visited = visitedAfter(visited, { path: answer.trail, endings_found: answer.endings_found });
    keep(VISITED_KEY, visited);
  }

  /** The choices a reloaded entry kept, when its trail is the server's. */
  function entryChoices(answer) {
    const data = entryData();
    const same = Array.isArray(data.trail) && data.trail.join('\n') === answer.trail.join('\n');
    return same && Array.isArray(data.choices) ? data.choices : [];
  }

  function lock() {
    saving = true;
    holdMoves(root);
  }

  async function unlock() {
    saving = false;
    releaseMoves(root);
    if (popWaiting) {
      popWaiting = false;
      returnTo(viewOf(location.hash), history.state && history.state.data);
    }
  }

  /** Asks the server for one step; false when it could not (what went wrong is said). */
  async function ask(body, taken) {
    try {
      const answer = await api('POST', PLAY, body);
      if (!isPlayStep(answer))
        throw Object.assign(new Error('The story answered something this page cannot read.'), { code: 'bad_answer' });
      accept(answer, taken);
      offline(false);
      return true;
    } catch (error) {
      if (error.code === 'network') {
        offline(true);
        say(playOfflineLine(true));
      } else if (error.code === 'not_interactive') {
        location.reload(); // the story was replaced by one read from its JSON
      } else if (error.code === 'invalid_choice' || error.code === 'place_moved') {
        toast('Your place in this story changed elsewhere; here it is.');
        await reload();
      } else {
        toast(error.message);
      }
      return false;
    }
  }

  async function move(body, { push = true } = {}) {
    if (saving) return;
    lock();
    const before = now.step;
    const chosen = Number.isInteger(body.choice);
    const moved = await ask(chosen ? { ...body, at: before } : body, chosen ? { step: before, index: body.choice } : null);
    draw(moved ? {} : { focus: false, fade: false });
    if (moved && (push || !popWaiting)) settleURL(push);
    else if (!moved && !popWaiting) settleURL(false);
    await unlock();
  }

  /** Forward: the choices taken again, one by one, as long as each reaches the entry's trail. */
  async function replay(plan) {
    lock();
    for (const index of plan.choices) {
      const step = now.step;
      if (!(await ask({ choice: index, at: step }, { step, index }))) break;
      if (now.trail[now.step] !== plan.trail[now.step]) break; // the story went elsewhere: stay there
    }
    draw();
    if (!popWaiting) settleURL(false);
    await unlock();
  }

  const choose = (index) => move({ choice: index });

  /** The in-app Back: Back in the browser's history when the entry before is the step before, else a rewind. */
  async function back() {
    if (!now || now.step < 1 || saving) return;
    const from = entryData().from;
    if (Array.isArray(from) && from.join('\n') === now.trail.slice(0, now.step).join('\n')) history.back();
    else await move({ step: now.step - 1 });
  }

  async function restart() {
    const yes = await confirmDialog({
      title: 'Restart the story?',
      text: 'You go back to the first chapter. Endings you found stay found.',
      ok: 'Restart',
      cancel: 'Keep reading',
    });
    if (yes) await move({ step: 0 });
  }

  /** The server's place, drawn (after a refused choice, or when the connection is back). */
  async function reload() {
    try {
      const answer = await api('GET', PLAY);
      if (!isPlayStep(answer)) return;
      accept(answer, null);
      offline(false);
      draw({ focus: false, fade: false });
      settleURL(false);
    } catch {
      // Still out of reach: the step shown stands.
    }
  }

  // ---------- Start ----------

  visited = (await kept(VISITED_KEY)) || [];
  let first = null;
  let reached = true;
  try {
    first = await api('GET', PLAY);
    if (!isPlayStep(first)) throw new Error('The story answered something this page cannot read.');
  } catch (error) {
    if (error.code !== 'network') throw error;
    reached = false;
    const copy = await kept(PLAY);
    first = isPlayStep(copy) ? copy : null;
  }
  $('back').addEventListener('click', back);
  $('restart').addEventListener('click', restart);
  $('ending-restart').addEventListener('click', restart);
  addEventListener('online', () => {
    if (now && !$('offline-note').hidden && !saving) reload();
  });
  addEventListener('offline', () => now && offline(true));
  if (!first) {
    $('reader-status').textContent = playOfflineLine(false);
    return;
  }
  if (reached) accept(first, null);
  else {
    now = first;
    choices = entryChoices(first);
  }
  offline(!reached);
  $('reader-status').hidden = true;
  draw({ focus: false, fade: false });
  router.start();
  // A reload keeps the URL's step; a link to an earlier step of the trail rewinds there.
  // A place without a step (the library's Continue) is the server's place, never a rewind.
  const wanted = parseView(router.view);
  const place = playPlace(wanted.args);
  const plan = reached && wanted.name === 'chapter' && place.step !== null ? playMove(now, place, entryData()) : { kind: 'here' };
  if (plan.kind === 'rewind') await move({ step: plan.step }, { push: false });
  else if (plan.kind === 'replay') await replay(plan);
  else settleURL(false);
}
