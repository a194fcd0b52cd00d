// Oblique Strategies: History, the last draws with a note on each. A note saved without the server waits in the
// device's outbox (js/sync.js) and is sent once it is back, with the note it replaces (`was`): a note changed on
// another device meanwhile is kept beside it, not written over. A draw made without the server waits there too,
// and is listed on top until it is sent (it can take a note once it has joined).
import { $, make, setSavedText } from '../js/dom.js';
import { all, read, send } from '../js/sync.js';
import { formatDateTime } from '../js/time.js';
import { HISTORY as PATH, SCOPE } from './logic.js';
import { NOTE_MAX, noteProblem, waitingDraws, waitingNotes, withNotes } from './lists.js';
import { ui, state, isNetworkError, cardButton, findKnownCard, loadDeck, loadMine } from './page.js';

export async function enter() {
  const empty = $('history-empty');
  const reading = read(PATH); // at once: the outbox and the waiting draws' cards are read meanwhile
  const outbox = await all();
  const drawn = await waitingRows(waitingDraws(outbox));
  let entries = [];
  let problem = '';
  try {
    entries = await reading;
  } catch (error) {
    if (!isNetworkError(error)) problem = error.message;
    else problem = drawn.length ? 'The rest of your history needs a connection.' : 'Your history needs a connection.';
  }
  empty.textContent = problem || 'Nothing drawn yet.';
  empty.hidden = !problem && entries.length + drawn.length > 0;
  if (problem && !drawn.length) return;
  const shown = withNotes(entries, waitingNotes(outbox));
  // Shown again with nothing changed: the rows stay, so a note being typed or a button under a finger stays too.
  const rows = [...drawn.map(({ draw }) => [waitingKey(draw), '']), ...shown.map((e) => [String(e.id), e.note || ''])];
  const listed = [...ui.historyList.children].map((li) => [li.dataset.entry, li.dataset.note]);
  const saved = new Map(entries.map((e) => [String(e.id), e.note || '']));
  if (JSON.stringify(rows) === JSON.stringify(listed)) {
    // A note sent from the outbox is the server's now: the next one is written over it, not kept beside it, and
    // its word no longer says that it waits.
    for (const li of ui.historyList.children) {
      if (!saved.has(li.dataset.entry)) continue;
      li.dataset.was = saved.get(li.dataset.entry);
      if (!('waits' in li.dataset) || li.dataset.was !== li.dataset.note) continue;
      delete li.dataset.waits;
      const status = li.querySelector('.os-saved');
      if (status) status.textContent = savedWord(li.dataset.note);
    }
    return;
  }
  ui.historyList.replaceChildren(...drawn.map(waitingItem), ...shown.map((e) => item(e, saved.get(String(e.id)))));
}

/** The waiting draws with their cards: from the deck or the own cards the device has (a card unknown is left out). */
async function waitingRows(draws) {
  if (!draws.length) return [];
  if (draws.some((draw) => !findKnownCard(draw.card_id))) await Promise.all([loadDeck(), loadMine()].map((p) => p.catch(() => {})));
  return draws.map((draw) => ({ draw, card: findKnownCard(draw.card_id) })).filter((row) => row.card);
}

// A waiting draw's row in place of an entry id, which it gets once sent.
const waitingKey = (draw) => `waiting ${draw.drawn_at} ${draw.card_id}`;

function waitingItem({ draw, card }) {
  return make(
    'li',
    { dataset: { entry: waitingKey(draw), note: '' } },
    make('time', { className: 'os-muted', datetime: draw.drawn_at, text: formatDateTime(draw.drawn_at) }),
    cardButton(card),
    make('p', {
      className: 'os-muted',
      text: 'Drawn offline: it joins your history when the connection is back, and can take a note then.',
    }),
  );
}

// What waited reached the server: History, if it is shown, is read again.
addEventListener('trove:synced', ({ detail }) => {
  if (detail.scopes.includes(SCOPE) && state.view === 'history') enter().catch(() => {});
});

const WAITS = ' on this device until the connection is back';
const savedWord = (note) => (note ? 'Saved' : 'Note removed');

/** A draw's row; `was`: its note as the server has it (a note waiting in the outbox shows in its place). */
function item(entry, was) {
  const id = `note-${entry.id}`;
  const input = make('input', { type: 'text', id, name: 'note', maxlength: String(NOTE_MAX), autocomplete: 'off' });
  setSavedText(input, entry.note || '');
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
    const li = form.closest('li');
    error.textContent = noteProblem(note, li.dataset.was);
    if (error.textContent) return;
    try {
      const sent = await send(
        'PATCH',
        `${PATH}/${entry.id}`,
        { note: note || null, was: li.dataset.was || null },
        {
          label: `the note on “${entry.card.strategy}”`,
          scope: SCOPE,
          replace: `${SCOPE}:note:${entry.id}`,
        },
      );
      const kept = sent.queued ? note : (sent.data && sent.data.note) || '';
      setSavedText(input, kept);
      // The history kept on the device (what opens offline) was read before this note: read it again. A note that
      // waits is shown from the outbox (waitingNotes).
      if (!sent.queued) read(PATH).catch(() => {});
      li.dataset.note = kept;
      if (!sent.queued) li.dataset.was = kept;
      // A note that waits says so until the outbox has sent it (the rows' update above).
      li.toggleAttribute('data-waits', Boolean(sent.queued) && kept === note);
      if (kept !== note) status.textContent = `Changed on another device meanwhile: ${note ? 'both notes are kept' : 'that note stays'}`;
      else status.textContent = savedWord(note) + (sent.queued ? WAITS : '');
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  return make(
    'li',
    { dataset: { entry: entry.id, note: entry.note || '', was: was || '' } },
    make('time', { className: 'os-muted', datetime: entry.drawn_at, text: formatDateTime(entry.drawn_at) }),
    cardButton(entry.card),
    form,
  );
}
