// Magnetic Poetry: word helpers from the pronunciation data (rhymes, same first sound, syllables per
// line). When the server has no pronunciation data (404 not_imported) they stay hidden.
import { api } from '../js/api.js';
import { $, make } from './dom.js';
import { linesOf } from './spelling.js';

/** The word a pronunciation dictionary knows: lower case, no surrounding punctuation ('' for emoji). */
export function spoken(word) {
  return String(word)
    .toLowerCase()
    .replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
}

export class Helpers {
  constructor({ api: base, board, onPick }) {
    this.base = base;
    this.board = board;
    this.onPick = onPick;
    this.available = null; // unknown until the first answer
    this.cache = new Map(); // "rhymes:word" → [words]
    this.syllables = new Map(); // word → count or null
    this.magnet = null;
    this.timer = 0;
    this.panel = $('helpers');
    this.syllablePanel = $('syllables-panel');
    for (const id of ['rhymes', 'alliterations']) {
      $(id).addEventListener('click', (e) => {
        const button = e.target.closest('button[data-word]');
        if (button) this.onPick(button.dataset.word);
      });
    }
  }

  unavailable(error) {
    if (error && (error.status === 404 || error.code === 'not_imported')) {
      this.available = false;
      this.panel.hidden = true;
      this.syllablePanel.hidden = true;
      this.board.highlight(null);
      return true;
    }
    return false;
  }

  async words(kind, word) {
    const key = `${kind}:${word}`;
    if (!this.cache.has(key)) {
      const answer = await api('GET', `${this.base}/${kind}?word=${encodeURIComponent(word)}`);
      this.cache.set(key, Array.isArray(answer && answer.words) ? answer.words : []);
    }
    return this.cache.get(key);
  }

  /** A magnet was selected (or null): show words that rhyme and alliterate with it. */
  async select(magnet) {
    this.magnet = magnet;
    const word = magnet ? spoken(magnet.word) : '';
    if (!word || this.available === false) {
      this.panel.hidden = true;
      this.board.highlight(null);
      return;
    }
    try {
      const [rhymes, alliterations] = await Promise.all([this.words('rhymes', word), this.words('alliterations', word)]);
      if (this.magnet !== magnet) return;
      this.available = true;
      $('helpers-word').textContent = magnet.word;
      this.chips('rhymes', rhymes);
      this.chips('alliterations', alliterations);
      this.panel.hidden = !rhymes.length && !alliterations.length;
      $('helpers-hint').hidden = !this.panel.hidden;
      this.board.highlight(new Set(rhymes.map((w) => w.toLowerCase())));
    } catch (error) {
      if (!this.unavailable(error)) this.panel.hidden = true;
    }
  }

  chips(kind, words) {
    const shown = words.slice(0, 12);
    $(`${kind}-group`).hidden = shown.length === 0;
    $(kind).replaceChildren(
      ...shown.map((word) =>
        make('button', { type: 'button', className: 'pm-chip', 'data-word': word, 'aria-label': `Add “${word}”`, text: word }),
      ),
    );
  }

  /** The board changed: recount the syllables a little later, and re-mark the rhymes. */
  boardChanged() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.count(), 400);
    if (this.magnet && this.available) this.select(this.board.magnet(this.magnet.id) || null);
  }

  async count() {
    if (this.available === false || !this.board.data) return;
    // Lines of the poem on the board (the tray is not the poem), suffixes joined as they are read.
    const lines = linesOf(this.board.snapshot().items);
    const words = lines
      .flatMap((line) => line.split(/\s+/))
      .map(spoken)
      .filter(Boolean);
    const missing = [...new Set(words)].filter((w) => !this.syllables.has(w));
    try {
      for (let i = 0; i < missing.length; i += 60) {
        const chunk = missing.slice(i, i + 60);
        const answer = await api('GET', `${this.base}/syllables?words=${encodeURIComponent(chunk.join(','))}`);
        const found = (answer && answer.syllables) || {};
        for (const w of chunk) this.syllables.set(w, typeof found[w] === 'number' ? found[w] : null);
      }
    } catch (error) {
      this.unavailable(error);
      return;
    }
    this.available = true;
    const list = $('syllables');
    list.replaceChildren(
      ...lines.map((line) => {
        let total = 0;
        let unknown = 0;
        for (const w of line.split(/\s+/).map(spoken).filter(Boolean)) {
          const n = this.syllables.get(w);
          if (typeof n === 'number') total += n;
          else unknown += 1;
        }
        return make(
          'li',
          {},
          make('span', { className: 'pm-line', text: line }),
          make('span', {
            className: 'pm-count',
            text: unknown ? `${total}+?` : String(total),
            title: unknown ? `${unknown} word(s) not in the dictionary` : null,
          }),
        );
      }),
    );
    this.syllablePanel.hidden = lines.length === 0;
  }
}
