// Magnetic Poetry: saves that meet what another device did meanwhile. Loaded when it happens.
import { api, toast } from '../js/api.js';
import { send } from '../js/sync.js';
import { UNTITLED, idOf } from './save.js';

/**
 * A queued save was refused. It met a newer version (saved on another device meanwhile): the later save, this one,
 * wins; the open poem is saved again as it is now, another poem with the words of the save that was refused. It met
 * a poem deleted there: its words are kept as a new poem (keepAsNew). A word set's change that met the set deleted
 * there keeps its words as a new set (wordset-editor.js).
 */
export async function dropped(c, { entry, error }) {
  const { saver } = c;
  if (entry.method !== 'PUT') return;
  if (entry.path.startsWith(c.sets.base + '/')) {
    if (error.code !== 'not_found') return;
    const { name, words } = entry.body;
    return import('./wordset-editor.js').then((m) => m.keepAsNew(c.sets, idOf(entry.path), { name, words }));
  }
  const open = saver.poem && entry.path === saver.path();
  if (error.code === 'not_found') return saver.gone(idOf(entry.path), open ? saver.body() : entry.body);
  if (error.code !== 'version_conflict') return;
  const fresh = await api('GET', entry.path).catch(() => null);
  if (!fresh) return toast(`Not saved: ${entry.label}. ${error.message}`);
  if (open) {
    saver.poem.version = fresh.version;
    saver.dirty = true;
    return saver.saveNow();
  }
  const { scope, replace, label, resolves } = entry;
  await send('PUT', entry.path, { ...entry.body, version: fresh.version }, { scope, replace, label, resolves }).then(
    (result) => result.data && saver.keepCopy(result.data),
    (e) => toast(`Not saved: ${label}. ${e.message}`),
  );
}

/**
 * A save met a poem deleted on another device meanwhile. The delete stands for the poem as it was there; what this
 * device wrote is kept as a new poem, and a page that has it open goes on with that one.
 */
export async function keepAsNew({ state, saver, renderPoems, forgetUndo, showBackground, showPublished, address }, { id, title, board }) {
  const made = await saver.create(title || UNTITLED, board);
  saver.dropCopy(id);
  forgetUndo(id);
  const { version, updated_at } = made;
  state.poems = [{ id: made.id, title: made.title, version, updated_at }, ...state.poems.filter((p) => p.id !== id && p.id !== made.id)];
  if (state.poem?.id === id) {
    Object.assign(state.poem, { id: made.id, version, updated_at, has_background: false, public_id: null });
    const changedMeanwhile = saver.dirty;
    saver.open(state.poem);
    if (changedMeanwhile) saver.changed();
    showBackground();
    showPublished();
    address();
  }
  renderPoems();
  toast(`“${made.title}” was deleted on another device. What you wrote here is kept as a new poem.`, { timeout: 8000 });
}
