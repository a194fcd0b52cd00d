// City Roulette: a city's card. The server renders the facts; this adds the local time (ticking each
// minute), sunrise and sunset in the city's own time, the weather, the distance from the person (only
// when asked and allowed), the favourite star or "Add to my cities", the city's Wikipedia article where it has one,
// and a small map.
import { api, toast } from '../js/api.js';
// The offline layer (js/sync.js) loads after the page, as on the cities page; it sends what waits and says so in the
// header. The mark tells the browser tests' weight budget where the first view ends.
const sync = () => import('../js/sync.js');
setTimeout(() => {
  performance.mark('trove:after-first-view');
  sync();
}, 3000);
const send = (...args) => sync().then((s) => s.send(...args));
import { $ } from '../js/dom.js';
import { formatNumber } from '../js/format.js';
import { COLLECTION, followCollection } from './collection.js';
import { distanceKm } from './geo.js';
import { formatLocalTime } from './clock.js';
import { CityMap, loadWorld, wireMapControls } from './map.js';
import { getUnit, paintWeather, setUnit, weatherFor } from './weather.js';

const page = $('city');
const data = page.dataset;
const id = Number(data.geonameid);
const timeZone = data.timezone;
const latitude = Number(data.latitude);
const longitude = Number(data.longitude);
const API = '/api/v1/cities';

// ---------- Local time, sunrise, sunset ----------

function tick() {
  const now = new Date();
  const time = $('local-time');
  time.textContent = formatLocalTime(null, timeZone, now);
  time.dateTime = now.toISOString();
  try {
    $('local-date').textContent =
      `Local time, ${new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone }).format(now)}`;
  } catch {
    /* an unknown zone: the time says UTC */
  }
  setTimeout(tick, 60000 - (Date.now() % 60000) + 50);
}
tick();

for (const time of document.querySelectorAll('.cr-sun')) {
  const iso = time.getAttribute('datetime');
  if (iso) time.textContent = formatLocalTime(iso, timeZone);
}

// ---------- Weather ----------

let unit = getUnit();
let weather;
const paint = () => {
  paintWeather($('weather'), weather, unit);
  $('weather-text').textContent = weather?.error ? `Weather unavailable: ${weather.error}` : weather?.description || 'Weather';
};
for (const input of document.getElementsByName('unit')) input.checked = input.value === unit;
document.addEventListener('change', (e) => {
  if (e.target.name !== 'unit') return;
  unit = e.target.value;
  setUnit(unit);
  paint();
});
paint();
// Refused for a while (the service failed several times, Retry-After): the card asks again once that has passed.
const askWeather = () =>
  weatherFor(id).then((w) => {
    weather = w;
    paint();
    if (w?.retryAfter > 0) setTimeout(askWeather, Math.min(w.retryAfter, 300) * 1000 + 500);
  });
askWeather();

// ---------- Wikipedia ----------

// Where Wikipedia has the city's own article, its summary is shown here with a link to it, as the original app did,
// and the search goes. Without one, or without Wikipedia or Trove's server (offline), the search stays, unremarked.
async function showArticle() {
  const article = await api('GET', `${API}/${id}/article`).catch(() => null);
  const found = /^https:\/\//.test(article?.url); // a link to the article, never a script
  if (found) {
    $('article-extract').textContent = article.extract;
    $('article-link').href = article.url;
    $('article').hidden = false;
    const search = $('wikipedia');
    if (search) search.hidden = true;
  }
  page.dataset.article = found ? 'shown' : 'none';
}
if (navigator.onLine) showArticle();

// ---------- Distance ----------

$('how-far').addEventListener('click', () => {
  const out = $('distance');
  if (!navigator.geolocation) {
    out.textContent = 'This browser cannot tell where you are.';
    return;
  }
  out.textContent = 'Finding where you are…';
  navigator.geolocation.getCurrentPosition(
    (p) => {
      const km = distanceKm(p.coords.latitude, p.coords.longitude, latitude, longitude);
      out.textContent = `${km < 10 ? km.toFixed(1) : formatNumber(Math.round(km))} km from you`;
      $('how-far').hidden = true;
    },
    (e) => {
      out.textContent = e.code === 1 ? 'Your location was not shared.' : 'Your location is not available right now.';
    },
    { timeout: 15000, maximumAge: 60000 },
  );
});

// ---------- Favourite / Add to my cities ----------

/** This city as My cities lists it, for the collection's copy while an add waits (collection.js). */
const keptRow = () => ({
  geonameid: id,
  name: data.name,
  country_code: data.countryCode,
  country_name: data.country,
  latitude,
  longitude,
  population: Number(data.population) || 0,
  timezone: timeZone,
  favourite: false,
});

// What adding or starring did, said under the buttons: a toast there covered Favourite, the next thing to tap.
const said = (text) => {
  $('collection-said').textContent = text;
};

const star = $('favourite');
star.addEventListener('click', async () => {
  const on = star.getAttribute('aria-pressed') !== 'true';
  star.disabled = true;
  try {
    // The last star wins; without the server it waits on this device (js/sync.js).
    const sent = await send(on ? 'PUT' : 'DELETE', `${COLLECTION}/${id}/favourite`, undefined, {
      label: `the star of ${data.name}`,
      scope: 'cities',
      replace: `cities:favourite:${id}`,
    });
    star.setAttribute('aria-pressed', String(on));
    sync().then((s) => followCollection(s, sent, (mine) => mine?.map((c) => (c.geonameid === id ? { ...c, favourite: on } : c))));
    said(
      (on ? `${data.name} is a favourite.` : `${data.name} is no longer a favourite.`) +
        (sent.queued ? ' Saved on this device until the connection is back.' : ''),
    );
  } catch (error) {
    toast(error.message);
  } finally {
    star.disabled = false;
  }
});

$('add').addEventListener('click', async (e) => {
  const add = e.currentTarget;
  add.disabled = true;
  try {
    const sent = await send(
      'POST',
      `${COLLECTION}/import`,
      { cities: [{ geonameid: id, favourite: false }] },
      { label: `adding ${data.name} to your cities`, scope: 'cities' },
    );
    add.hidden = true;
    sync().then((s) => followCollection(s, sent, (mine) => mine && [...mine.filter((c) => c.geonameid !== id), keptRow()]));
    star.setAttribute('aria-pressed', 'false');
    star.hidden = false;
    star.focus();
    said(sent.queued ? `${data.name} joins your cities when the connection is back.` : `${data.name} is in your cities now.`);
  } catch (error) {
    toast(error.message);
    add.disabled = false;
  }
});

// ---------- Map ----------

const map = new CityMap($('map'), { maxScale: 256 * 2 ** 11 });
map.setCities([{ geonameid: id, name: data.name, latitude, longitude, population: Number(data.population) || 0 }]);
map.select(id);
wireMapControls(page, map);
requestAnimationFrame(() => setTimeout(() => loadWorld().then((points) => map.setWorld(points)), 0));
page.dataset.ready = 'true';
