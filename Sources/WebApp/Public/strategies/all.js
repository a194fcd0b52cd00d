// Oblique Strategies: All, every card of the published deck grouped by the edition it first appeared in, with a
// search as you type (case and accents ignored). Loaded when the view is first shown.
import { make } from '../js/dom.js';
import { fold } from './logic.js';
import { groupAll, matchesSearch, allCountLine } from './lists.js';
import { ui, label, isNetworkError, loadDeck } from './page.js';

let rows = []; // { li, key, section } for the search
let built = false;

/** Shows All; `ready` resolves once the editions' labels are in (they head the groups). */
export async function enter(ready) {
  if (built) return;
  try {
    const [deck] = await Promise.all([loadDeck(), ready]);
    if (built) return;
    build(deck);
  } catch (error) {
    ui.allCount.textContent = isNetworkError(error) ? 'The cards cannot be loaded while offline.' : error.message;
  }
}

function build(deck) {
  rows = [];
  const sections = groupAll(deck).map(({ edition, rows: cards }) => {
    const headingID = `all-edition-${edition}`;
    const list = make('ul', { className: 'os-list' });
    const section = make(
      'section',
      { className: 'os-group', 'aria-labelledby': headingID },
      make('h3', { id: headingID, text: label(edition) }),
      list,
    );
    for (const { card, editions } of cards) {
      const li = make(
        'li',
        {},
        make(
          'button',
          { type: 'button', className: 'os-item', dataset: { id: card.id } },
          make('span', { className: 'os-item-text', text: card.strategy }),
          editions.length > 1 ? make('span', { className: 'os-item-meta', text: `In ${editions.map(label).join(', ')}` }) : null,
        ),
      );
      list.append(li);
      rows.push({ li, key: fold(card.strategy), section });
    }
    return section;
  });
  ui.allList.replaceChildren(...sections);
  built = true;
  filter();
}

/** Shows the rows that match the search box, and says how many. */
export function filter() {
  if (!built) return;
  const query = ui.search.value.trim();
  let shown = 0;
  const visible = new Set();
  for (const row of rows) {
    const match = matchesSearch(row.key, query);
    row.li.hidden = !match;
    if (match) {
      shown += 1;
      visible.add(row.section);
    }
  }
  for (const section of ui.allList.children) section.hidden = !visible.has(section);
  ui.allCount.textContent = allCountLine(rows.length, shown, query);
}
