// Magnetic Poetry: coming back to the page. The open poem may have been changed meanwhile in another tab or on
// another device; it is shown as it is now before this page's next change saves over it (a save that meets a newer
// version keeps this page's board, so a page left open on a laptop would otherwise undo the phone's work with one
// nudge). Loaded when the page is come back to.
import { toast } from '../js/api.js';
import { read } from '../js/sync.js';
import { withAPIKeys } from './board.js';
import { SCOPE, isTemp, pendingPoems, shownTitle } from './save.js';

let running = null;

/** Shows the server's newer version of the open poem, if there is one and the page has nothing of its own to send. */
export function refresh(c) {
  running ??= newer(c).finally(() => {
    running = null;
  });
  return running;
}

async function newer(c) {
  const { API, state, board, saver, sets, ui, remember, undo, sync, took, showBackground, showPublished, poemPath } = c;
  const poem = state.poem;
  const idle = () => state.poem === poem && !saver.dirty && !saver.running && !board.drag;
  const pending = await pendingPoems(API);
  if (!pending.size) await newerList(c);
  if (!poem || isTemp(poem.id) || pending.has(poem.id)) return; // its own saves wait: they are newer
  // No connection: what is shown is all there is. Deleted there: the next change keeps it as a new poem (elsewhere.js).
  const fresh = await read(poemPath(poem), SCOPE).catch((error) => error.status === 404 && idle() && deletedThere(poem));
  if (!fresh?.board || fresh.version <= poem.version || !idle()) return;
  const data = withAPIKeys(fresh.board);
  if (!sets.find(data.word_set_id)) await sets.load(); // a word set made there
  if (!sets.find(data.word_set_id) || !idle()) return;
  remember('elsewhere'); // what this page showed is one Undo away
  Object.assign(poem, {
    title: fresh.title,
    version: fresh.version,
    updated_at: fresh.updated_at,
    has_background: fresh.has_background,
    public_id: fresh.public_id,
  });
  saver.open(poem);
  ui.poemTitle.value = shownTitle(fresh.title);
  board.load(data);
  showBackground();
  showPublished();
  took(fresh);
  sync();
  toast('This poem was changed somewhere else and now shows that version.', { timeout: 8000, action: { label: 'Undo', run: undo } });
}

function deletedThere(poem) {
  toast(`“${poem.title}” was deleted on another device. A change here keeps it as a new poem.`, { timeout: 8000 });
}

/** The list of poems as the server has it now (poems made or renamed there), while nothing of this page's waits. */
async function newerList({ API, state, renderPoems }) {
  const listed = () => state.poems.map((p) => p.id).join();
  const before = listed();
  const poems = await read(`${API}/poems`, SCOPE).catch(() => null);
  if (!Array.isArray(poems) || listed() !== before) return; // a poem made here meanwhile
  state.poems = poems.filter((p) => !state.leaving?.has(p.id)); // one deleted here, its Undo still running
  renderPoems();
}
