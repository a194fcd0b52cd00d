// Choose Your Destiny: the parts of the chapter view that the reader (reader.js) and the player of interactive
// stories (play.js) draw alike: the ending, the trail of chapters read, the page turn, and the controls held
// while a move is on its way.
import { plural } from '../js/format.js';
import { $, make, reducedMotion } from './dom.js';
import { trail, readLine, endingsLine } from './logic.js';

const MOVES = '.st-choice, .st-step, #back, #restart, #ending-restart';

/** The ending box, shown at an ending: how many chapters `path` read, and the endings `found` (ids, named from
 * `chapters`) of the story's `total`. */
export function drawEnding(isEnding, path, found, total, chapters) {
  $('ending').hidden = !isEnding;
  if (!isEnding) return;
  $('ending-read').textContent = readLine(path);
  $('ending-found').textContent = endingsLine(found, total, chapters);
}

/** The trail of `path`: the chapter shown marked, each one before it a button that calls `goBack(index)`. */
export function drawTrail(path, chapters, goBack) {
  const steps = trail(path, chapters);
  $('trail-box').hidden = steps.length < 2;
  $('trail-count').textContent = plural(steps.length, 'chapter');
  $('trail').replaceChildren(
    ...steps.map((step) =>
      make(
        'li',
        {},
        step.current
          ? make('span', { className: 'st-step is-current', 'aria-current': 'step', text: step.name })
          : make('button', {
              className: 'st-step',
              type: 'button',
              text: step.name,
              'aria-label': `Go back to ${step.name}`,
              onclick: () => goBack(step.index),
            }),
      ),
    ),
  );
}

/** A chapter just drawn in `article` fades in (unless motion is reduced); with `focus`, the page goes to its title. */
export function turnPage(article, { focus, fade }) {
  if (fade && !reducedMotion()) {
    article.classList.remove('st-fade');
    void article.offsetWidth; // restart the animation
    article.classList.add('st-fade');
  }
  if (focus) {
    window.scrollTo(0, 0);
    $('chapter-title').focus({ preventScroll: true });
  }
}

/** While a move is on its way, `root` is busy and every control that moves is off, so a second tap cannot race it. */
export function holdMoves(root) {
  root.setAttribute('aria-busy', 'true');
  for (const button of root.querySelectorAll(MOVES)) button.disabled = true;
}

/** The move has its answer: `root` is no longer busy (drawing the chapter sets the other controls again). */
export function releaseMoves(root) {
  root.removeAttribute('aria-busy');
  $('ending-restart').disabled = false;
}
