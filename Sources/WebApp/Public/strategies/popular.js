// Oblique Strategies: Popular, the cards people keep most often as favourites.
import { api } from '../js/api.js';
import { $, make } from '../js/dom.js';
import { plural } from '../js/format.js';
import { API } from './logic.js';
import { ui, meta, isNetworkError, cardButton } from './page.js';

export async function enter() {
  const empty = $('popular-empty');
  try {
    const ranking = await api('GET', `${API}/popular`);
    empty.hidden = ranking.length > 0;
    ui.popularList.replaceChildren(
      ...ranking.map(({ card, favourites }) => make('li', {}, cardButton(card, `${meta(card)} · ${plural(favourites, 'favourite')}`))),
    );
  } catch (error) {
    empty.hidden = false;
    empty.textContent = isNetworkError(error) ? 'The ranking needs a connection.' : error.message;
  }
}
