// Oblique Strategies: Popular, the cards people keep most often as favourites. The ranking last read is kept on
// the device (js/sync.js, read), and shown without the server.
import { $, make } from '../js/dom.js';
import { read } from '../js/sync.js';
import { plural } from '../js/format.js';
import { API } from './logic.js';
import { ui, meta, isNetworkError, cardButton } from './page.js';

export async function enter() {
  const empty = $('popular-empty');
  try {
    const ranking = await read(`${API}/popular`);
    empty.hidden = ranking.length > 0;
    ui.popularList.replaceChildren(
      ...ranking.map(({ card, favourites }) => make('li', {}, cardButton(card, `${meta(card)} · ${plural(favourites, 'favourite')}`))),
    );
  } catch (error) {
    empty.hidden = false;
    empty.textContent = isNetworkError(error) ? 'The ranking needs a connection.' : error.message;
  }
}
