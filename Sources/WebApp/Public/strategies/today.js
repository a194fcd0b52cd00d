// Oblique Strategies: the card of the day (the same for everyone on a day, in the person's time zone). Without
// the server it is chosen here, from the deck the device keeps, the way the server chooses it (logic.js).
import { api } from '../js/api.js';
import { $ } from '../js/dom.js';
import { API, cardOfTheDay } from './logic.js';
import { state, meta, isNetworkError, loadDeck } from './page.js';

export async function enter() {
  try {
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    show(await api('GET', `${API}/today?${new URLSearchParams({ tz: timeZone })}`));
  } catch (error) {
    const card = isNetworkError(error) && cardOfTheDay(await loadDeck().catch(() => []), new Date());
    if (card) show(card);
    else $('today-text').textContent = isNetworkError(error) ? 'The card of the day needs a connection.' : error.message;
  }
}

function show(card) {
  state.today = card;
  $('today-text').textContent = card.strategy;
  $('today-meta').textContent = meta(card);
  $('today-show').disabled = false;
}
