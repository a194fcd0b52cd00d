// Magnetic Poetry: the "Word sets" panel, loaded the first time it opens. A person makes, renames and
// deletes sets of their own and adds or removes their words; the server checks the rules (1–60
// character names, 1–40 character words, one set of a name) and its messages are shown. The writes go
// through the offline layer: without the network they wait on the device (a new set has a tmp- id until
// the server answers) and the panel shows them as done.
import { toast } from '../js/api.js';
import { send } from '../js/sync.js';
import { tempId } from '../js/sync-logic.js';
import { plural } from '../js/format.js';
import { $, make } from './dom.js';

const SCOPE = 'poetry';
const WAITS = 'Saved on this device; it goes to Trove when you are back online.';

/** Words typed one per line or separated by commas, each once. */
export function parseWords(text) {
  return [
    ...new Set(
      String(text)
        .split(/[\n,]/)
        .map((w) => w.trim())
        .filter(Boolean),
    ),
  ];
}

class Editor {
  constructor(sets) {
    this.sets = sets;
    this.base = sets.base;
    this.ownList = $('own-sets');
    this.empty = $('own-sets-empty');
    this.form = $('new-set-form');
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.create();
    });
    this.ownList.addEventListener('click', (e) => this.click(e));
    this.ownList.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit(e.target);
    });
    this.render();
  }

  render() {
    const own = this.sets.list.filter((set) => !set.built_in);
    this.empty.hidden = own.length > 0;
    const open = new Set([...this.ownList.querySelectorAll('details[open]')].map((d) => d.dataset.set));
    this.ownList.replaceChildren(...own.map((set) => this.item(set, open.has(set.id))));
  }

  item(set, open) {
    const nameId = `set-name-${set.id}`;
    const addId = `set-add-${set.id}`;
    const details = make(
      'details',
      { className: 'pm-set', 'data-set': set.id, open },
      make(
        'summary',
        {},
        make(
          'span',
          {},
          make('span', { className: 'pm-set-name', text: set.name }),
          ' ',
          make('span', { className: 'pm-muted', text: `· ${plural(set.words.length, 'word')}` }),
        ),
      ),
      make(
        'form',
        { className: 'pm-inline-form', 'data-action': 'rename', novalidate: true },
        make(
          'div',
          { className: 'field' },
          make('label', { for: nameId, text: 'Name' }),
          make(
            'div',
            { className: 'pm-inline' },
            make('input', { id: nameId, name: 'name', type: 'text', maxlength: '60', autocomplete: 'off', value: set.name }),
            make('button', { type: 'submit', className: 'button', text: 'Rename' }),
          ),
        ),
      ),
      make(
        'div',
        { className: 'pm-chips', role: 'list', 'aria-label': `Words of ${set.name}` },
        ...set.words.map((word) =>
          make(
            'span',
            { role: 'listitem' },
            make(
              'button',
              {
                type: 'button',
                className: 'pm-chip pm-chip-remove',
                'data-remove-word': word,
                'aria-label': `Remove “${word}” from ${set.name}`,
              },
              make('span', { text: word }),
              make('span', { 'aria-hidden': 'true', className: 'pm-x', text: '×' }),
            ),
          ),
        ),
      ),
      make(
        'form',
        { className: 'pm-inline-form', 'data-action': 'add', novalidate: true },
        make(
          'div',
          { className: 'field' },
          make('label', { for: addId, text: 'Add words' }),
          make(
            'div',
            { className: 'pm-inline' },
            make('input', { id: addId, name: 'words', type: 'text', autocomplete: 'off', 'aria-describedby': `set-error-${set.id}` }),
            make('button', { type: 'submit', className: 'button', text: 'Add' }),
          ),
        ),
      ),
      make('p', { className: 'form-error', id: `set-error-${set.id}`, role: 'alert' }),
      make('button', { type: 'button', className: 'button danger', 'data-delete-set': set.id, text: 'Delete set' }),
    );
    return make('li', {}, details);
  }

  setOf(node) {
    const details = node.closest('[data-set]');
    return details && this.sets.find(details.dataset.set);
  }

  showError(set, message) {
    const line = $(`set-error-${set.id}`);
    if (line) line.textContent = message;
    else toast(message);
  }

  async create() {
    const error = $('new-set-error');
    const name = $('new-set-name').value.trim();
    const words = parseWords($('new-set-words').value);
    error.textContent = '';
    if (!name) {
      error.textContent = 'Give the set a name.';
      $('new-set-name').focus();
      return;
    }
    if (!words.length) {
      error.textContent = 'Write at least one word.';
      $('new-set-words').focus();
      return;
    }
    if (this.sets.list.some((s) => !s.built_in && s.name.toLowerCase() === name.toLowerCase())) {
      error.textContent = `You already have a word set named “${name}”. Give this one another name.`;
      $('new-set-name').focus();
      return;
    }
    try {
      const id = tempId();
      const result = await send(
        'POST',
        this.base,
        { name, words },
        { scope: SCOPE, creates: id, idFrom: 'id', label: `the word set “${name}”` },
      );
      const set = result.data || { id, name, words, built_in: false };
      this.sets.list.push(set);
      this.sets.keepList();
      this.render();
      this.form.reset();
      toast(result.data ? `“${set.name}” is ready, with ${plural(set.words.length, 'word')}.` : `“${set.name}”: ${WAITS}`);
      this.sets.onCreated(set);
    } catch (failure) {
      error.textContent = failure.message;
      $('new-set-name').focus();
    }
  }

  /**
   * PUT replaces name and words: that is how rename, add and remove all work. It says what the set was here
   * (`base`), so the server keeps what another device changed meanwhile; a set deleted there is kept as a new one.
   */
  async update(set, name, words, focusSelector) {
    try {
      const result = await send(
        'PUT',
        `${this.base}/${encodeURIComponent(set.id)}`,
        { name, words, base: { name: set.name, words: set.words } },
        { scope: SCOPE, replace: `wordset:${set.id}`, label: `the word set “${name}”`, resolves: ['not_found'] },
      );
      const saved = result.data || { ...set, name, words };
      if (result.queued) toast(WAITS);
      else if (saved.name !== name || saved.words.join('\n') !== words.join('\n'))
        toast(`“${saved.name}” keeps what was changed on another device too.`);
      const before = { ...set, words: [...set.words] };
      Object.assign(set, saved);
      this.sets.keepList();
      this.reopen(set, focusSelector);
      this.sets.onEdited(before, set);
      return true;
    } catch (failure) {
      if (failure.status !== 404) this.showError(set, failure.message);
      else if (await keepAsNew(this.sets, set.id, { name, words })) this.reopen(set, focusSelector); // set.id is the new one
      return false;
    }
  }

  /** Draws the list again with `set` open, as it was while being changed. */
  reopen(set, focusSelector) {
    this.render();
    const details = this.ownList.querySelector(`[data-set="${CSS.escape(set.id)}"]`);
    if (details) {
      details.open = true;
      details.querySelector(focusSelector)?.focus();
    }
  }

  async submit(form) {
    const set = this.setOf(form);
    if (!set) return;
    this.showError(set, '');
    const input = form.querySelector('input');
    if (form.dataset.action === 'rename') {
      await this.update(set, input.value.trim(), set.words, 'form[data-action="rename"] input');
    } else {
      const words = parseWords(input.value);
      if (!words.length) {
        this.showError(set, 'Write a word to add.');
        return;
      }
      await this.update(set, set.name, [...new Set([...set.words, ...words])], 'form[data-action="add"] input');
    }
  }

  async click(e) {
    const remove = e.target.closest('[data-remove-word]');
    const del = e.target.closest('[data-delete-set]');
    const set = (remove || del) && this.setOf(remove || del);
    if (!set) return;
    if (remove) {
      const word = remove.dataset.removeWord;
      if (set.words.length === 1) {
        this.showError(set, 'A set keeps at least one word. Delete the set instead.');
        return;
      }
      await this.update(
        set,
        set.name,
        set.words.filter((w) => w !== word),
        'form[data-action="add"] input',
      );
      return;
    }
    if (
      !(await this.sets.confirm(
        'Delete this word set?',
        `“${set.name}” and its ${plural(set.words.length, 'word')} will be gone. This poem keeps the words it uses.`,
        'Delete',
      ))
    )
      return;
    // The server refuses to delete a set a poem uses: this poem moves off it first.
    await this.sets.onDeleting(set);
    try {
      await send('DELETE', `${this.base}/${encodeURIComponent(set.id)}`, undefined, {
        scope: SCOPE,
        label: `deleting the word set “${set.name}”`,
      });
    } catch (failure) {
      if (failure.status !== 404) {
        this.showError(set, failure.message);
        return;
      }
    }
    this.sets.list = this.sets.list.filter((s) => s !== set);
    this.sets.keepList();
    this.render();
    $('wordsets-panel').querySelector('summary').focus();
    this.sets.onDeleted(set);
  }
}

/**
 * A change met its set deleted on another device: the delete stands, and the words as changed here are kept as a new
 * set under the same name (or the next free one). The set takes its new id the way one made offline does
 * (trove:sync-id), so the list, the picker and a board on it follow. Resolves whether the words were kept.
 */
export async function keepAsNew(sets, id, { name, words }) {
  const free = (n) => !sets.list.some((s) => s.id !== id && s.name.toLowerCase() === n.toLowerCase());
  const names = [name, ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${name.slice(0, 57)} ${n}`)].filter(free);
  for (const kept of names) {
    const made = tempId();
    const options = { scope: SCOPE, creates: made, idFrom: 'id', label: `the word set “${kept}”` };
    try {
      const result = await send('POST', sets.base, { name: kept, words }, options);
      const set = sets.find(id);
      if (set) Object.assign(set, { name: kept, words });
      else sets.list.push({ id, name: kept, words, built_in: false });
      const detail = { temp: id, id: result.data ? result.data.id : made, scope: SCOPE };
      dispatchEvent(new CustomEvent('trove:sync-id', { detail }));
      sets.editor?.then((editor) => editor.render());
      const as = kept === name ? '' : `, “${kept}”`;
      toast(`“${name}” was deleted on another device. Its words are kept as a new set${as}.`, { timeout: 8000 });
      return true;
    } catch (failure) {
      if (failure.code !== 'wordset_name_taken') {
        toast(`Not saved: ${failure.message}`);
        return false;
      }
    }
  }
  toast(`Not saved: “${name}” was deleted on another device, and its name and the next ones are taken.`);
  return false;
}

export function edit(sets) {
  return new Editor(sets);
}
