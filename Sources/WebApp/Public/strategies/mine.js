// Oblique Strategies: Mine, the cards a person writes for themselves: add, edit in place, delete after a
// confirmation. Without the server each change waits in the device's outbox (js/sync.js) and is sent once when
// it is back; a card written offline has a temporary id until the server gives it its own.
import { $, make, confirmDialog, busy } from '../js/dom.js';
import { toast } from '../js/api.js';
import { keep, send } from '../js/sync.js';
import { tempId } from '../js/sync-logic.js';
import { API, SCOPE, cardId, ownCard, newestFirst } from './logic.js';
import { countLine, cardProblem } from './lists.js';
import { state, say, isNetworkError, loadMine } from './page.js';
import { showCard, showPrompt, updateCardButtons, pick } from './draw.js';

const PATH = `${API}/mine`;
const text = $('mine-text');
const count = $('mine-count');
const problem = $('mine-error');
const list = $('mine-list');
const empty = $('mine-empty');

/** The device's copy of the own cards, as this page now has them after each change, sent or waiting: what a read offline gives. */
const keepMine = () => keep(PATH, state.mine);

export async function enter() {
  try {
    await loadMine();
    render();
  } catch (error) {
    empty.hidden = false;
    empty.textContent = isNetworkError(error) ? 'Your cards cannot be loaded while offline.' : error.message;
  }
}

function render() {
  const cards = state.mine || [];
  empty.hidden = cards.length > 0;
  empty.textContent = 'You have not written any cards yet.';
  // Showing the tab fetches the cards again while the list drawn before is on screen: draw it again only when
  // the cards differ from what it shows, or each visit swaps the buttons under a finger for identical new ones.
  const shown = [...list.children].map((li) => [li.dataset.mine, li.querySelector('.os-mine-text')?.textContent]);
  if (JSON.stringify(shown) === JSON.stringify(cards.map((card) => [String(card.id), card.strategy]))) return;
  list.replaceChildren(...cards.map(item));
}

function item(card) {
  return make(
    'li',
    { className: 'os-mine-item', dataset: { mine: card.id } },
    make('p', { className: 'os-mine-text', text: card.strategy }),
    make(
      'div',
      { className: 'os-actions' },
      make('button', {
        type: 'button',
        className: 'button',
        dataset: { action: 'show' },
        text: 'Show',
        'aria-label': `Show “${card.strategy}”`,
      }),
      make('button', {
        type: 'button',
        className: 'button',
        dataset: { action: 'edit' },
        text: 'Edit',
        'aria-label': `Edit “${card.strategy}”`,
      }),
      make('button', {
        type: 'button',
        className: 'button danger',
        dataset: { action: 'delete' },
        text: 'Delete',
        'aria-label': `Delete “${card.strategy}”`,
      }),
    ),
  );
}

function updateCounter(textarea, counter) {
  const { over, label } = countLine(textarea.value);
  counter.textContent = label;
  counter.classList.toggle('is-over', over);
  if (over) textarea.setAttribute('aria-invalid', 'true');
  else textarea.removeAttribute('aria-invalid');
}

/** The new card's text box was typed in. */
export function onInput() {
  updateCounter(text, count);
  if (problem.textContent && !cardProblem(text.value.trim())) problem.textContent = '';
}

function editForm(card) {
  const id = `edit-${card.id}`;
  const textarea = make('textarea', { id, rows: 3, 'aria-describedby': `${id}-count` });
  textarea.value = card.strategy;
  const counter = make('p', { className: 'hint os-counter', id: `${id}-count` });
  const error = make('p', { className: 'form-error', role: 'alert' });
  const form = make(
    'form',
    { className: 'os-edit', novalidate: true },
    make('div', { className: 'field' }, make('label', { for: id, text: 'Edit your card' }), textarea, counter),
    error,
    make(
      'div',
      { className: 'os-actions' },
      make('button', { type: 'submit', className: 'button primary', text: 'Save' }),
      make('button', { type: 'button', className: 'button', dataset: { action: 'cancel' }, text: 'Cancel' }),
    ),
  );
  updateCounter(textarea, counter);
  textarea.addEventListener('input', () => updateCounter(textarea, counter));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const words = textarea.value.trim();
    error.textContent = cardProblem(words);
    if (error.textContent) {
      textarea.focus();
      return;
    }
    form.setAttribute('aria-busy', 'true');
    try {
      const sent = await send(
        'PATCH',
        `${PATH}/${card.id}`,
        { strategy: words },
        {
          label: `your card “${words}”`,
          scope: SCOPE,
          replace: `${SCOPE}:mine:${card.id}`,
          resolves: ['not_found'], // deleted elsewhere: added again (dropped)
        },
      );
      const saved = sent.queued ? { ...card, strategy: words } : sent.data;
      state.mine = state.mine.map((other) => (other.id === card.id ? saved : other));
      keepMine();
      replaceEverywhere(saved);
      const li = item(saved);
      form.closest('li').replaceWith(li);
      li.querySelector('[data-action="edit"]').focus();
      say(sent.queued ? 'Card saved on this device' : 'Card saved');
    } catch (failure) {
      form.removeAttribute('aria-busy');
      if (failure.status !== 404) {
        error.textContent = failure.message;
        return;
      }
      const again = await confirmDialog({
        title: 'This card was deleted on another device',
        text: `Add “${words}” to your cards again?`,
        ok: 'Add again',
        cancel: 'Go back',
        safe: true,
      });
      if (!again) return textarea.focus();
      try {
        const added = await addAgain(card.id, words);
        list.querySelector(`[data-mine="${added.id}"] [data-action="edit"]`)?.focus();
        say('Card added again');
      } catch (e) {
        error.textContent = e.message;
      }
    }
  });
  return form;
}

/** An edit of a card deleted on another device meanwhile: the card is written again, as a new one, with the edit. */
async function addAgain(id, words) {
  const temp = tempId();
  const sent = await send('POST', PATH, { strategy: words }, { label: `your card “${words}”`, scope: SCOPE, creates: temp, idFrom: 'id' });
  const card = sent.queued ? ownCard(temp, words) : sent.data;
  state.mine = newestFirst([card, ...(state.mine || []).filter((other) => other.id !== id)]);
  keepMine();
  if (state.view === 'mine') render();
  if (state.card && state.card.id === id) showCard(card, 'pick');
  return card;
}

/** The outbox sent an edit of a card deleted on another device meanwhile (strategies.js passes it on). */
export async function dropped({ entry, error }) {
  if (entry.method !== 'PATCH' || error.code !== 'not_found') return;
  const id = cardId(entry.path.slice(entry.path.lastIndexOf('/') + 1));
  await addAgain(id, entry.body.strategy).then(
    () => toast(`“${entry.body.strategy}” was deleted on another device. Your edit is kept as a new card.`, { timeout: 8000 }),
    (e) => toast(`Not saved: ${entry.label}. ${e.message}`),
  );
}

function replaceEverywhere(card) {
  if (state.card && state.card.id === card.id) showCard(card, 'pick');
  if (state.favourites) state.favourites = state.favourites.map((other) => (other.id === card.id ? card : other));
}

async function remove(card, li) {
  const sure = await confirmDialog({ title: 'Delete this card?', text: `“${card.strategy}” will be gone for good.` });
  if (!sure) {
    li.querySelector('[data-action="delete"]')?.focus();
    return;
  }
  try {
    const sent = await send('DELETE', `${PATH}/${card.id}`, undefined, { label: `deleting your card “${card.strategy}”`, scope: SCOPE });
    const index = state.mine.findIndex((other) => other.id === card.id);
    state.mine = state.mine.filter((other) => other.id !== card.id);
    keepMine();
    state.favIDs.delete(card.id);
    if (state.favourites) state.favourites = state.favourites.filter((other) => other.id !== card.id);
    render();
    if (state.card && state.card.id === card.id) showPrompt();
    updateCardButtons();
    const next = list.children[Math.min(index, list.children.length - 1)];
    (next ? next.querySelector('[data-action="delete"]') : text).focus();
    say('Card deleted');
  } catch (error) {
    problem.textContent = error.message;
  }
}

/** The new card's form was sent. */
export async function add() {
  const words = text.value.trim();
  problem.textContent = cardProblem(words);
  if (problem.textContent) {
    text.setAttribute('aria-invalid', 'true');
    text.focus();
    return;
  }
  await busy($('mine-add'), async () => {
    try {
      const temp = tempId();
      const sent = await send(
        'POST',
        PATH,
        { strategy: words },
        { label: `your card “${words}”`, scope: SCOPE, creates: temp, idFrom: 'id' },
      );
      const card = sent.queued ? ownCard(temp, words) : sent.data;
      state.mine = newestFirst([card, ...(state.mine || []).filter((other) => other.id !== card.id)]);
      keepMine();
      text.value = '';
      updateCounter(text, count);
      render();
      say(sent.queued ? 'Card added on this device' : 'Card added');
    } catch (error) {
      problem.textContent = error.message;
      if (error.status === 422) text.setAttribute('aria-invalid', 'true');
    }
  });
}

list.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-action]');
  if (!button) return;
  const li = button.closest('li[data-mine]');
  const card = (state.mine || []).find((other) => String(other.id) === li.dataset.mine);
  if (!card) return;
  const action = button.dataset.action;
  if (action === 'show') pick(card);
  else if (action === 'delete') remove(card, li);
  else if (action === 'edit') {
    const form = editForm(card);
    li.replaceChildren(form);
    form.querySelector('textarea').focus();
  } else if (action === 'cancel') {
    const fresh = item(card);
    li.replaceWith(fresh);
    fresh.querySelector('[data-action="edit"]').focus();
  }
});

// A card written offline reached the server: the list shows it under its own id.
addEventListener('trove:sync-id', ({ detail }) => {
  if (detail.scope === SCOPE && state.view === 'mine') render();
});
