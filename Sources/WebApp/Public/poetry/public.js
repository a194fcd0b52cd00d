// Magnetic Poetry: a published poem, read-only, drawn with the same board code as the editor on a board of the
// shape it was written on (the board's `aspect`, width over height; 3:4 for poems saved before it was kept), so
// every word keeps its place beside the others, as large as the screen allows (public.css).
import { api } from '../js/api.js';
import { Board, FONTS } from './board.js';
import { linesOf } from './spelling.js';

const root = document.getElementById('poetry-public');
const element = document.getElementById('board');
const text = document.getElementById('poem-text');
const background = document.getElementById('board-bg');
const publicId = root.dataset.publicId;
const path = `/api/v1/poetry/published/${encodeURIComponent(publicId)}`;

async function show() {
  const poem = await api('GET', path);
  const data = poem.board;
  if (!FONTS[data.font]) data.font = 'serif';
  const aspect = Number(data.aspect);
  if (aspect >= 0.25 && aspect <= 4) element.style.setProperty('--pm-aspect', String(aspect));
  if (poem.has_background) {
    background.src = `${path}/background`;
    background.hidden = false;
  }
  const board = new Board(element);
  board.load(data, { animate: true });
  const lines = linesOf(board.snapshot().items);
  text.replaceChildren(...lines.flatMap((line, i) => (i ? [document.createElement('br'), line] : [line])));
  element.setAttribute('aria-label', `The poem on a fridge door: ${lines.join(' / ')}`);
  element.removeAttribute('aria-busy');
  element.dataset.ready = 'true';
}

show().catch((error) => {
  text.textContent = error.status === 404 ? 'This poem is no longer published.' : error.message;
});
