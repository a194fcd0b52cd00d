// Magnetic Poetry: a font or size for the poem (loaded by poetry.js when one is first changed). Magnets are stored at
// fractions of the board and sized by the font: a new size scales the stored places with the magnets, so the poem
// keeps its lines and its shape; a size or font at which its lines no longer fit the board gives way to the largest
// size that does, and the sheet says so under the slider. (Drawn at a size's stored places, words grown into their
// neighbours were moved to any free place: the poem on screen was no longer the person's.)
import * as ts from './typeset.js';

/**
 * Stored places (fractions of the board) scaled by `k` about the poem's top-left corner, as the magnets' sizes are by a
 * new font size; a poem that would then cross the board's right or bottom edge moves left or up, as a whole. `boxes`
 * are the magnets in px at the size before; answers [{x, y}] fractions.
 */
export function scalePoem(boxes, k, { width, height }) {
  if (!boxes.length || !width || !height) return boxes.map((b) => ({ x: b.x / (width || 1), y: b.y / (height || 1) }));
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const scaled = boxes.map((b) => ({ x: x0 + (b.x - x0) * k, y: y0 + (b.y - y0) * k, w: b.w * k, h: b.h * k }));
  const dx = Math.min(x0, Math.max(0, Math.max(...scaled.map((b) => b.x + b.w)) - width));
  const dy = Math.min(y0, Math.max(0, Math.max(...scaled.map((b) => b.y + b.h)) - height));
  return scaled.map((b) => ({ x: Math.max(0, b.x - dx) / width, y: Math.max(0, b.y - dy) / height }));
}

/** The line under the size slider that says why the poem is drawn smaller than asked ('' hides it). */
function note(slider, text) {
  let line = document.getElementById('font-size-note');
  if (!line && !text) return;
  if (!line) {
    line = Object.assign(document.createElement('p'), { id: 'font-size-note', className: 'hint' });
    line.setAttribute('role', 'status');
    slider.setAttribute('aria-describedby', line.id);
    slider.after(line);
  }
  line.textContent = text;
  // The sheet scrolls on a phone: the note, its last line, is scrolled into it (the sheet alone, not the page).
  const sheet = text && line.closest('.pm-sheet');
  if (sheet) sheet.scrollTop = sheet.scrollHeight;
}

const round = (value, digits) => Math.round(value * 10 ** digits) / 10 ** digits;
const percent = (scale) => `${Math.round(scale * 100)}%`;

// A run of size and font changes scales from the poem as it was before the first of them (`board.sizing`), so going
// back to that size gives back its places exactly, and a font that needed a smaller size gives it back; any other
// change (a magnet moved, added or taken off, another poem) starts a new run.
const placesOf = (data) => JSON.stringify(data.magnets.map((m) => [m.id, m.x, m.y]));
function run(board) {
  const { data } = board;
  if (board.sizing?.data !== data || board.sizing.key !== placesOf(data)) {
    board.sizing = { data, scale: data.font_scale, asked: data.font_scale, places: data.magnets.map(({ x, y }) => ({ x, y })) };
  }
  return board.sizing;
}

/**
 * Draws the board's poem at `scale`, or, where its lines no longer fit the board there (Board#fits, typeset.js), at
 * the largest size that does, in steps of 0.05 down to `floor` (the size before, when smaller). Answers the size drawn.
 */
export function setScale(board, scale, floor = Math.min(scale, board.data.font_scale)) {
  board.ts ??= ts; // Board#fits comes with it
  const { data } = board;
  const sizing = run(board);
  const { width, height } = board.size();
  const k = sizing.scale / data.font_scale; // from the sizes drawn now to those of the run's start
  const boxes = data.magnets.map((m, i) => {
    const node = board.nodes.get(m.id);
    return { x: sizing.places[i].x * width, y: sizing.places[i].y * height, w: node.offsetWidth * k, h: node.offsetHeight * k };
  });
  for (let s = scale; ; s = Math.max(floor, round(s - 0.05, 2))) {
    const back = s === sizing.scale; // the run's own places, exactly
    const places = back ? sizing.places : scalePoem(boxes, s / sizing.scale, { width, height });
    places.forEach((p, i) => Object.assign(data.magnets[i], back ? p : { x: round(p.x, 5), y: round(p.y, 5) }));
    data.font_scale = s;
    board.applyStyle();
    if (board.fits || s <= floor) {
      sizing.key = placesOf(data);
      return s;
    }
  }
}

/** The size slider moved: the poem at that size, or at the largest where it fits, said under the slider. */
export function size({ board, ui, remember, sync, changed }) {
  remember('size');
  const asked = Number(ui.fontSize.value);
  const drawn = setScale(board, asked);
  board.sizing.asked = asked;
  sync();
  changed();
  note(ui.fontSize, drawn < asked ? `At ${percent(drawn)} this poem fills the board: larger, its lines would no longer fit.` : '');
}

/** Another font: the size asked for, or the largest under it where the lines fit in this font's letters, said under the slider. */
export function font({ board, ui, remember, sync, changed }) {
  remember('font');
  const { asked } = run(board);
  board.data.font = ui.font.value;
  board.applyStyle();
  const drawn = setScale(board, asked, 0.5);
  sync();
  changed();
  note(ui.fontSize, drawn < asked ? `In this font the poem's lines fit the board at ${percent(drawn)}, not ${percent(asked)}.` : '');
}
