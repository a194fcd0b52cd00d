// City Roulette: each city's current weather, at most 4 requests in flight, and how a row shows it.
import { api } from '../js/api.js';
import { weatherSVG } from './icons.js';
import { createQueue, formatTemperature } from './logic.js';

const UNIT_KEY = 'trove.cities.unit';
const queue = createQueue(4);
const cache = new Map(); // geonameid → Promise of the weather, or null when unavailable
const PROVIDERS = { 'open-meteo': ['Open-Meteo', 'https://open-meteo.com/'], openweathermap: ['OpenWeather', 'https://openweathermap.org/'] };

export function getUnit() {
  try { return localStorage.getItem(UNIT_KEY) === 'F' ? 'F' : 'C'; } catch { return 'C'; }
}

export function setUnit(unit) {
  try { localStorage.setItem(UNIT_KEY, unit); } catch { /* private mode: this page only */ }
}

/** The weather of a city (null when unavailable); `refresh` asks the server for a fresh reading. */
export function weatherFor(id, refresh = false) {
  if (!refresh && cache.has(id)) return cache.get(id);
  const promise = queue.run(() => api('GET', `/api/v1/cities/${id}/weather${refresh ? '?refresh=1' : ''}`))
    .then((data) => {
      if (data === undefined) cache.delete(id); // dropped before it started
      else credit(data.provider);
      return data;
    }, () => null);
  cache.set(id, promise);
  return promise;
}

/** Forgets the requests not started yet (a scene was left). */
export const dropPending = () => queue.clear();

function credit(provider) {
  const box = document.getElementById('wx-credit');
  const link = document.getElementById('wx-provider');
  const known = PROVIDERS[provider];
  if (!box || !link || !known) return;
  [link.textContent, link.href] = known;
  box.hidden = false;
}

/** Shows weather in a .cr-wx element: undefined = loading, null = unavailable. */
export function paintWeather(el, data, unit) {
  const icon = el.querySelector('.cr-wx-icon');
  const temp = el.querySelector('.cr-temp');
  el.classList.toggle('is-loading', data === undefined);
  el.classList.toggle('is-off', data === null);
  if (data === undefined) {
    el.title = 'Loading the weather';
    if (!icon.firstChild) icon.innerHTML = weatherSVG('unknown');
    temp.textContent = '';
    return;
  }
  if (data === null) {
    el.title = 'Weather unavailable';
    icon.innerHTML = weatherSVG('unavailable', true, 'Weather unavailable');
    temp.textContent = 'n/a';
    return;
  }
  const text = formatTemperature(data.temperature_c, unit);
  el.title = `${data.description || data.condition}, ${text}`;
  icon.innerHTML = weatherSVG(data.condition, data.is_day, data.description || data.condition.replace('_', ' '));
  temp.textContent = text;
}
