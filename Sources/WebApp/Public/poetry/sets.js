// Magnetic Poetry: changing the word set of the open poem (loaded with the first change). The poem on the
// board never goes: words of the set before stay on the board as added words.
import { plural } from '../js/format.js';

/** Another word set in the tray. The poem on the board stays; its words from the set before stay with it. */
export function useSet(c, id) {
  const { board, ui, sets, currentSet, remember, sync, changed, toBoard, say } = c;
  const set = sets.find(id);
  const data = board.data;
  if (!set || !data || set.id === data.word_set_id) return sync();
  const before = currentSet();
  remember('wordset');
  const onBoard = new Set(data.magnets.map((m) => m.word));
  const carried = [...onBoard].filter((w) => !set.words.includes(w));
  const extra = [...new Set([...data.extra_words.filter((w) => onBoard.has(w) && !set.words.includes(w)), ...carried])].slice(0, 200);
  const keep = new Set([...set.words, ...extra]);
  Object.assign(data, { word_set_id: set.id, extra_words: extra, magnets: data.magnets.filter((m) => keep.has(m.word)) });
  board.load(data);
  ui.setNote.hidden = !carried.length;
  ui.setNote.textContent = carried.length
    ? `${plural(carried.length, 'word')} on the board came from ${before ? `“${before.name}”` : 'another set'} and stay${carried.length === 1 ? 's' : ''} there.`
    : '';
  sync();
  changed();
  toBoard();
  say(
    `${set.name}: ${plural(set.words.length, 'word')} in the tray${carried.length ? `; the poem keeps ${plural(carried.length, 'word')} from before` : ''}`,
  );
}

/** One of the person's sets changed: the board keeps its magnets; the tray shows the set's words now. */
export function setEdited(c, before, after) {
  const { board, remember, sync, changed } = c;
  const data = board.data;
  if (!data || data.word_set_id !== after.id) return sync();
  remember('set-edit');
  for (const word of before.words) {
    if (!after.words.includes(word) && data.magnets.some((m) => m.word === word) && !data.extra_words.includes(word))
      data.extra_words.push(word);
  }
  sync();
  changed();
}

/** Before a set is deleted (the server refuses while a poem uses it) this board moves off it. */
export async function leaveSet(c, set) {
  const { board, sets, saver, remember, sync, changed } = c;
  const data = board.data;
  if (!data || data.word_set_id !== set.id) return;
  remember('set-delete');
  Object.assign(data, sets.rehome(data, set));
  board.load(data);
  sync();
  changed();
  await saver.flush();
}
