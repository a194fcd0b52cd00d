// Oblique Strategies: the card of the day (the same for everyone on a day, in the person's time zone).
import { api } from '../js/api.js';
import { $ } from '../js/dom.js';
import { API } from './logic.js';
import { state, meta, isNetworkError } from './page.js';

export async function enter() {
  try {
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    const card = await api('GET', `${API}/today?${new URLSearchParams({ tz: timeZone })}`);
    state.today = card;
    $('today-text').textContent = card.strategy;
    $('today-meta').textContent = meta(card);
    $('today-show').disabled = false;
  } catch (error) {
    $('today-text').textContent = isNetworkError(error) ? 'The card of the day needs a connection.' : error.message;
  }
}
