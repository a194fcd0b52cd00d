// Oblique Strategies: History, the last draws with a note on each. A note saved without the server waits in the
// device's outbox (js/sync.js) and is sent once it is back; the last note of a draw wins.
import { $, make } from '../js/dom.js';
import { all, read, send } from '../js/sync.js';
import { formatDateTime } from '../js/time.js';
import { API, SCOPE } from './logic.js';
import { NOTE_MAX, noteProblem, waitingNotes, withNotes } from './lists.js';
import { ui, isNetworkError, cardButton } from './page.js';

const PATH = `${API}/history`;

export async function enter() {
  const empty = $('history-empty');
  try {
    const [entries, outbox] = await Promise.all([read(PATH), all()]);
    empty.hidden = entries.length > 0;
    empty.textContent = 'Nothing drawn yet.';
    const shown = withNotes(entries, waitingNotes(outbox));
    // Shown again with nothing changed: the rows stay, so a note being typed or a button under a finger stays too.
    const key = (list) => JSON.stringify(list.map((entry) => [String(entry.id), entry.note || '']));
    if (key(shown) === key([...ui.historyList.children].map((li) => ({ id: li.dataset.entry, note: li.dataset.note })))) return;
    ui.historyList.replaceChildren(...shown.map(item));
  } catch (error) {
    empty.hidden = false;
    empty.textContent = isNetworkError(error) ? 'Your history needs a connection.' : error.message;
  }
}

function item(entry) {
  const id = `note-${entry.id}`;
  const input = make('input', { type: 'text', id, name: 'note', maxlength: String(NOTE_MAX), autocomplete: 'off' });
  input.value = entry.note || '';
  const error = make('p', { className: 'form-error', role: 'alert' });
  const status = make('span', { className: 'os-muted os-saved', role: 'status' });
  const form = make(
    'form',
    { className: 'os-note', novalidate: true },
    make('div', { className: 'field' }, make('label', { for: id, text: 'Note' }), input),
    make('button', { type: 'submit', className: 'button', text: 'Save note', 'aria-label': `Save note for “${entry.card.strategy}”` }),
    status,
    error,
  );
  input.addEventListener('input', () => {
    status.textContent = '';
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const note = input.value.trim();
    error.textContent = noteProblem(note);
    if (error.textContent) return;
    try {
      const sent = await send(
        'PATCH',
        `${PATH}/${entry.id}`,
        { note: note || null },
        {
          label: `the note on “${entry.card.strategy}”`,
          scope: SCOPE,
          replace: `${SCOPE}:note:${entry.id}`,
        },
      );
      input.value = sent.queued ? note : (sent.data && sent.data.note) || '';
      // The history kept on the device (what opens offline) was read before this note: read it again. A note that
      // waits is shown from the outbox (waitingNotes).
      if (!sent.queued) read(PATH).catch(() => {});
      form.closest('li').dataset.note = input.value;
      status.textContent = (note ? 'Saved' : 'Note removed') + (sent.queued ? ' on this device until the connection is back' : '');
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  return make(
    'li',
    { dataset: { entry: entry.id, note: entry.note || '' } },
    make('time', { className: 'os-muted', datetime: entry.drawn_at, text: formatDateTime(entry.drawn_at) }),
    cardButton(entry.card),
    form,
  );
}
