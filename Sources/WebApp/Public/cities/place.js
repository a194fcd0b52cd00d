// City Roulette: a place typed by hand, when the location is not shared (cities.js loads this when asked).
import { api } from '../js/api.js';
import { $, scrollBehavior } from '../js/dom.js';
import { outOfRange, parseCoordinates, placeDetails } from './coords.js';

let searchSeq = 0;
let places = [];
let typingTimer = 0;

/**
 * Brings the form to the top of what is visible when the places found would end below it. On a phone the form
 * sits at the page's foot, and its suggestions opened below the fold (under the keyboard, on a real phone):
 * a person typing saw nothing happen.
 */
function keepResultsInView() {
  const view = window.visualViewport;
  const bottom = view ? view.offsetTop + view.height : innerHeight;
  if ($('place-results').getBoundingClientRect().bottom > bottom) {
    $('place-form').scrollIntoView({ block: 'start', behavior: scrollBehavior() });
  }
}

/** Wires the place form to the page's status line, coordinates() and its run() and nearby(). */
export function init({ status, coordinates, run, nearby }) {
  async function searchPlaces(text) {
    const seq = ++searchSeq;
    const point = parseCoordinates(text);
    if (point) {
      places = [{ name: coordinates(point.latitude, point.longitude), ...point, coordinates: true }];
    } else if (text.trim().length >= 2 && !outOfRange(text)) {
      let data;
      try {
        data = await api('GET', `/api/v1/cities/search?q=${encodeURIComponent(text.trim())}&limit=8`);
      } catch (error) {
        if (seq === searchSeq) {
          // The places found for what was typed before are not this text's.
          $('place-results').replaceChildren();
          status(error.message);
        }
        return (places = []);
      }
      if (seq !== searchSeq) return places;
      places = data.cities;
    } else {
      places = [];
    }
    $('place-results').replaceChildren(
      ...places.map((p, i) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'button';
        button.dataset.index = i;
        // One span: the button is a flex box, whose gap put a space before the comma ("Florence , Italy").
        const label = document.createElement('span');
        const name = document.createElement('b');
        name.textContent = p.coordinates ? `Around ${p.name}` : p.name;
        label.append(name, p.coordinates ? '' : placeDetails(p));
        button.append(label);
        const li = document.createElement('li');
        li.append(button);
        return li;
      }),
    );
    if (places.length) keepResultsInView();
    if (outOfRange(text))
      status(`“${text.trim()}” are coordinates out of range: latitude goes from −90 to 90, longitude from −180 to 180.`);
    else if (text.trim() && !places.length) status(`No place called “${text.trim()}” was found.`);
    else status('');
    return places;
  }

  const goTo = (place) =>
    run($('place-form'), () =>
      nearby(place.latitude, place.longitude, place.coordinates ? 'Around these coordinates' : `Around ${place.name}`),
    );

  $('place').addEventListener('input', (e) => {
    clearTimeout(typingTimer);
    typingTimer = setTimeout(() => searchPlaces(e.target.value), 250);
  });
  $('place-results').addEventListener('click', (e) => {
    const button = e.target.closest('button');
    if (button) goTo(places[Number(button.dataset.index)]);
  });
  $('place-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    clearTimeout(typingTimer);
    if (!$('place').value.trim()) {
      status('Type a place’s name, or its coordinates such as 43.77, 11.25.');
      return $('place').focus();
    }
    const found = await searchPlaces($('place').value);
    if (found.length) goTo(found[0]);
  });
}
