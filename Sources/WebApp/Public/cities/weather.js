// City Roulette: each city's current weather, at most 4 requests in flight, and how a row shows it.
import { api } from '../js/api.js';
import { weatherSVG } from './icons.js';
import { createQueue, formatTemperature } from './logic.js';

const UNIT_KEY = 'trove.cities.unit';
const queue = createQueue(4);
const cache = new Map(); // geonameid → Promise of the weather, or of { error } when unavailable

export function getUnit() {
  try {
    return localStorage.getItem(UNIT_KEY) === 'F' ? 'F' : 'C';
  } catch {
    return 'C';
  }
}

export function setUnit(unit) {
  try {
    localStorage.setItem(UNIT_KEY, unit);
  } catch {
    /* private mode: this page only */
  }
}

/** Why there is no weather, in a person's words. */
const why = (error) =>
  error?.status === 0 || !navigator.onLine
    ? 'There is no connection to Trove’s server.'
    : error?.message || 'The weather service did not answer.';

/** The weather of a city ({ error } when unavailable); `refresh` asks the server for a fresh reading. */
export function weatherFor(id, refresh = false) {
  if (!refresh && cache.has(id)) return cache.get(id);
  const promise = queue
    .run(() => api('GET', `/api/v1/cities/${id}/weather${refresh ? '?refresh=1' : ''}`))
    .then(
      (data) => {
        if (data === undefined) {
          if (cache.get(id) === promise) cache.delete(id);
        } // dropped before it started
        else credit(data.provider);
        return data;
      },
      (error) => {
        if (cache.get(id) === promise) cache.delete(id); // asked again next time
        return { error: why(error), retryAfter: error?.retryAfter };
      },
    );
  cache.set(id, promise);
  return promise;
}

/** Forgets the requests not started yet (a scene was left), so that the next asks again. */
export function dropPending() {
  queue.clear();
  for (const [id, promise] of cache)
    promise.then((data) => {
      if (data === undefined && cache.get(id) === promise) cache.delete(id);
    });
}

const PROVIDERS = {
  'open-meteo': ['Open-Meteo', 'https://open-meteo.com/'],
  openweathermap: ['OpenWeather', 'https://openweathermap.org/'],
};
function credit(provider) {
  const box = document.getElementById('wx-credit');
  const link = document.getElementById('wx-provider');
  const known = PROVIDERS[provider];
  if (!box || !link || !known) return;
  [link.textContent, link.href] = known;
  box.hidden = false;
}

/** Shows weather in a .cr-wx element: undefined = loading, { error } = unavailable (the reason in data-why). */
export function paintWeather(el, data, unit) {
  const icon = el.querySelector('.cr-wx-icon');
  const temp = el.querySelector('.cr-temp');
  const off = !!data?.error;
  el.classList.toggle('is-loading', data === undefined);
  el.classList.toggle('is-off', off);
  if (data === undefined) {
    el.title = 'Loading the weather';
    icon.innerHTML = weatherSVG('unknown', true, 'Loading the weather');
    temp.textContent = '…';
  } else if (off) {
    el.title = 'Weather unavailable';
    el.dataset.why = data.error;
    icon.innerHTML = weatherSVG('unavailable', true, 'Weather unavailable');
    temp.textContent = 'unavailable';
  } else {
    const text = formatTemperature(data.temperature_c, unit);
    el.title = `${data.description || data.condition}, ${text}`;
    icon.innerHTML = weatherSVG(data.condition, data.is_day, data.description || data.condition.replace('_', ' '));
    temp.textContent = text;
  }
}
