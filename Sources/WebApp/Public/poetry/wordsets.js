// Magnetic Poetry: the word sets, built in and the person's own. Fills the word set picker; the
// "Word sets" panel that edits them (wordset-editor.js) loads the first time it is opened.
import { toast } from '../js/api.js';
import { read, keep } from '../js/sync.js';
import { $, make, stylesheet } from './dom.js';
import { plural } from '../js/format.js';

export class WordSets {
  constructor({ api: base, onCreated, onEdited, onDeleting, onDeleted, confirm }) {
    this.base = `${base}/wordsets`;
    this.list = [];
    this.onCreated = onCreated;
    this.onEdited = onEdited;
    this.onDeleting = onDeleting;
    this.onDeleted = onDeleted;
    this.confirm = confirm;
    this.editor = null;
    const panel = $('wordsets-panel');
    panel.addEventListener('toggle', () => {
      if (!panel.open || this.editor) return;
      this.editor = Promise.all([import('./wordset-editor.js'), stylesheet('words.css')]).then(([module]) => module.edit(this));
    });
  }

  async load() {
    const list = await read(this.base, 'poetry');
    this.list = Array.isArray(list) ? list : [];
  }

  /**
   * Keeps the list as it is now, after every change made here: it is the copy a start reads while changes wait or
   * with no network (js/sync.js, read). The copy from before a set was made said it did not exist, and a poem on
   * that set, opened offline, was moved onto a built-in set.
   */
  keepList() {
    keep(this.base, this.list);
  }

  find(id) {
    return this.list.find((set) => set.id === id);
  }

  builtIns() {
    return this.list.filter((set) => set.built_in);
  }

  /** Fills a <select> with the built-in sets and the person's own, `selected` chosen. */
  fill(select, selected) {
    const group = (label, items) =>
      make(
        'optgroup',
        { label },
        ...items.map((set) => {
          const option = make('option', { value: set.id, text: `${set.name} (${plural(set.words.length, 'word')})` });
          option.selected = set.id === selected;
          return option;
        }),
      );
    const own = this.list.filter((set) => !set.built_in);
    select.replaceChildren(group('Built in', this.builtIns()), ...(own.length ? [group('Yours', own)] : []));
    select.value = selected;
  }

  /** A board whose word set is gone moves onto the first built-in set, its words kept as added words (at most 200). */
  rehome(data, gone = null) {
    const home = this.builtIns()[0];
    const keep = new Set(data.extra_words);
    for (const magnet of data.magnets) {
      if (!home.words.includes(magnet.word) && keep.size < 200) keep.add(magnet.word);
    }
    const extra = [...keep];
    const allowed = new Set([...home.words, ...extra]);
    if (gone) toast(`“${gone.name}” is gone; its words on this board stay.`);
    return { word_set_id: home.id, extra_words: extra, magnets: data.magnets.filter((m) => allowed.has(m.word)) };
  }
}
