// The story map page: on a narrow screen a tree of chapters (map-logic.js), on a wide one the server's drawing
// scrolled at its own size; either shows only the chapters this reader has been to unless they choose "Show all"
// ('#all', a URL like every view) and marks where they are. The author of the story always sees all.
import { api } from '../js/api.js';
import { kept, waiting } from '../js/sync.js';
import { plural } from '../js/format.js';
import { $, make } from '../js/dom.js';
import { createRouter } from '../js/router.js';
import { mapTree, shownIds } from './map-logic.js';
import { visitedAfter } from './logic.js';

const page = $('story-map');
const storyId = page.dataset.storyId;
const API = `/api/v1/stories/${encodeURIComponent(storyId)}`;
const state = { story: null, visited: [], here: null, showAll: false };

const KIND = { start: 'first chapter', ending: 'ending', chapter: '' };

function item(node) {
  const label = make(
    'div',
    {
      className: `sm-item sm-${node.kind}${node.here ? ' sm-here' : ''}`,
      dataset: { id: node.id },
      'aria-current': node.here ? 'location' : null,
    },
    make('span', { className: 'sm-name', text: node.name }),
    KIND[node.kind] ? make('span', { className: 'sm-kind', text: ` (${KIND[node.kind]})` }) : null,
    node.here ? make('a', { className: 'sm-you', href: `/stories/${encodeURIComponent(storyId)}`, text: 'You are here: continue' }) : null,
  );
  const notes = [];
  if (node.refs.length) notes.push(make('p', { className: 'sm-ref', text: `Also leads to ${node.refs.map((r) => r.name).join(', ')}` }));
  if (node.unexplored) notes.push(make('p', { className: 'sm-unexplored', text: `${plural(node.unexplored, 'choice')} not taken yet` }));
  return make('li', {}, label, ...notes, node.children.length ? make('ul', { className: 'sm-branch' }, ...node.children.map(item)) : null);
}

function drawTree(tree) {
  const parts = [];
  if (tree.root) parts.push(make('ul', { className: 'sm-branch sm-root' }, item(tree.root)));
  if (tree.others.length)
    parts.push(make('h2', { className: 'sm-sub', text: 'Also visited' }), make('ul', { className: 'sm-branch' }, ...tree.others.map(item)));
  if (tree.unreachable.length)
    parts.push(
      make('h2', { className: 'sm-sub', text: 'No choice leads here' }),
      make('ul', { className: 'sm-branch' }, ...tree.unreachable.map(item)),
    );
  $('map-tree').replaceChildren(...parts);
}

/** The server's drawing: unvisited boxes and arrows hidden, the reader's box marked. */
function drawSVG(options) {
  const svg = page.querySelector('svg.sm-svg');
  if (!svg) return;
  const nodes = [...svg.querySelectorAll('g.sm-node')];
  const tagged = nodes.every((g) => g.dataset.id !== undefined);
  // A drawing without its chapters' ids (a server from before them) cannot be filtered: it shows only to show all.
  page.classList.toggle('sm-no-drawing', !tagged && !options.showAll);
  if (!tagged) return;
  const shown = shownIds(state.story, options);
  for (const g of nodes) {
    g.classList.toggle('sm-hidden', !shown.has(g.dataset.id));
    g.classList.toggle('sm-here', g.dataset.id === options.here);
  }
  for (const edge of svg.querySelectorAll('.sm-edge'))
    edge.classList.toggle('sm-hidden', !shown.has(edge.dataset.from) || !shown.has(edge.dataset.to));
}

function draw() {
  const owner = !!state.story.owned;
  const showAll = owner || state.showAll;
  const options = { visited: state.visited, showAll, here: state.here };
  const tree = mapTree(state.story, options);
  drawTree(tree);
  drawSVG(options);
  const button = $('map-all');
  button.hidden = owner;
  button.setAttribute('aria-pressed', String(state.showAll));
  button.textContent = state.showAll ? 'Show only where I have been' : 'Show all chapters';
  $('map-status').textContent = owner
    ? `You wrote this story: all ${plural(tree.total, 'chapter')} are shown.`
    : showAll
      ? `All ${plural(tree.total, 'chapter')} are shown.`
      : `Showing the ${plural(tree.shown, 'chapter')} you have been to, of ${tree.total}.`;
  if (tree.unreachable.length) $('map-status').textContent += ` ${plural(tree.unreachable.length, 'chapter')} no choice leads to.`;
  const warnings = $('map-warnings');
  if (warnings) warnings.hidden = !showAll;
  page.dataset.ready = 'true';
}

const router = createRouter({
  onView: (view) => {
    state.showAll = view === 'all';
    if (state.story) draw();
  },
});

async function start() {
  $('map-all').addEventListener('click', () => router.go(state.showAll ? '' : 'all'));
  router.start();
  try {
    state.story = await api('GET', API);
    // The server's place, else this device's (the reader keeps it there with the chapter's name: not overwritten here).
    const local = () => kept(`${API}/progress`);
    const progress = (await waiting('stories')) ? await local() : await api('GET', `${API}/progress`).catch(local);
    const visited = await kept(`stories:visited:${storyId}`);
    state.here = progress && progress.chapter_id ? progress.chapter_id : state.story.start_chapter_id;
    state.visited = visitedAfter(visited, progress);
    draw();
  } catch (error) {
    $('map-status').textContent = `The map could not be loaded. ${error.message}`;
    page.dataset.ready = 'true';
  }
}

start();
