// City Roulette: the welcome screen (Around Me, Surprise Me, Browse my cities), finding a place when
// the location is not shared, and the way in and out of a scene (in-app Back, browser Back, leaving
// the page), asking first when something would be lost.
import { api } from '../js/api.js';
import { formatNumber, parseCoordinates } from './logic.js';
import { SceneView } from './scene.js';

const API = '/api/v1/cities';
const $ = (id) => document.getElementById(id);
const root = $('cities');
const status = (text) => { $('welcome-status').textContent = text; };
const fixed = (n) => Math.abs(n).toFixed(2);
const coordinates = (lat, lon) => `${fixed(lat)}° ${lat < 0 ? 'S' : 'N'}, ${fixed(lon)}° ${lon < 0 ? 'W' : 'E'}`;

let hash = ''; // the scene's hash while one is shown
let leaving = false;
let busy = false;

const scene = new SceneView({
  onCommitted(count, imported) {
    showCollection(count);
    if (imported) goBack(true);
  },
});

function showCollection(count) {
  root.dataset.collectionCount = count;
  $('browse').hidden = count <= 0;
  $('collection-count').textContent = `${formatNumber(count)} in your collection`;
}

// ---------- Scenes and history ----------

function openScene(name, kind, cities, labels, push = true) {
  if (push) history.pushState({ cities: name }, '', `#${name}`);
  hash = name;
  status('');
  scene.show(kind, cities, labels);
}

function showWelcome() {
  scene.close();
  hash = '';
  $('welcome').hidden = false;
  $('welcome-title').focus();
}

function confirmLeave() {
  const dialog = $('leave-dialog');
  const importing = scene.state?.kind === 'import';
  $('leave-title').textContent = importing ? 'Leave without importing?' : 'Leave without saving?';
  $('leave-text').textContent = importing
    ? 'These cities are not in your collection yet. Leave them behind?'
    : 'Your changes to your cities are not saved yet. Leave them unsaved?';
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'leave'), { once: true }));
}

async function goBack(force = false) {
  if (!force && scene.state?.unsaved && !(await confirmLeave())) return;
  leaving = true;
  history.back();
}

addEventListener('popstate', async () => {
  const target = location.hash.slice(1);
  if (hash && target !== hash) {
    if (!leaving && scene.state?.unsaved) {
      history.pushState({ cities: hash }, '', `#${hash}`); // stay until the person says otherwise
      if (await confirmLeave()) { leaving = true; history.back(); }
      return;
    }
    leaving = false;
    showWelcome();
  }
  if (!hash && target === 'browse') browse(false);
});

addEventListener('beforeunload', (e) => {
  if (hash && scene.state?.unsaved) {
    e.preventDefault();
    e.returnValue = '';
  }
});

$('scene-back').addEventListener('click', () => goBack());

// ---------- Around Me ----------

async function run(button, task) {
  if (busy) return;
  busy = true;
  button.setAttribute('aria-busy', 'true');
  try {
    await task();
  } catch (error) {
    status(error.message);
  } finally {
    busy = false;
    button.removeAttribute('aria-busy');
  }
}

async function nearby(latitude, longitude, title) {
  status('Looking for cities nearby…');
  const data = await api('GET', `${API}/nearby?lat=${latitude}&lon=${longitude}&radius_km=10&limit=30`);
  if (!data.cities.length) {
    status(`No cities within 10 km of ${coordinates(latitude, longitude)}.`);
    return;
  }
  openScene('around', 'import', data.cities, {
    title,
    sub: `${data.cities.length === 1 ? '1 city' : `${data.cities.length} cities`} within 10 km of ${coordinates(latitude, longitude)}`,
  });
}

function locate() {
  return new Promise((resolve) => {
    if (!navigator.geolocation) { resolve(null); return; }
    navigator.geolocation.getCurrentPosition((p) => resolve(p.coords), (e) => resolve(e), { timeout: 15000, maximumAge: 300000 });
  });
}

$('around-me').addEventListener('click', (e) => run(e.currentTarget, async () => {
  status('Finding where you are…');
  const found = await locate();
  if (found && 'latitude' in found) {
    await nearby(found.latitude, found.longitude, 'Around you');
    return;
  }
  const why = !found ? 'This browser cannot tell where you are.'
    : found.code === 1 ? 'Your location was not shared.' : 'Your location is not available right now.';
  askPlace(`${why} Type a place name or coordinates instead.`);
}));

function askPlace(message) {
  status(message);
  $('place-form').hidden = false;
  $('choose-place').hidden = true;
  $('place').focus();
}

$('choose-place').addEventListener('click', () => askPlace(''));

// ---------- A place typed by hand ----------

let searchSeq = 0;
let places = [];
let typingTimer = 0;

async function searchPlaces(text) {
  const seq = ++searchSeq;
  const list = $('place-results');
  const point = parseCoordinates(text);
  if (point) {
    places = [{ name: coordinates(point.latitude, point.longitude), ...point, coordinates: true }];
  } else if (text.trim().length >= 2) {
    let data;
    try {
      data = await api('GET', `${API}/search?q=${encodeURIComponent(text.trim())}&limit=8`);
    } catch (error) {
      if (seq === searchSeq) status(error.message);
      return places = [];
    }
    if (seq !== searchSeq) return places;
    places = data.cities;
  } else {
    places = [];
  }
  list.replaceChildren(...places.map((p, i) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'button';
    button.dataset.index = i;
    const name = document.createElement('b');
    name.textContent = p.coordinates ? `Around ${p.name}` : p.name;
    button.append(name);
    if (!p.coordinates) {
      const also = p.matched_name && p.matched_name !== p.name ? ` (${p.matched_name})` : '';
      button.append(`${also}, ${p.country_name || p.country_code}`);
    }
    const li = document.createElement('li');
    li.append(button);
    return li;
  }));
  if (text.trim() && !places.length) status(`No place called “${text.trim()}” was found.`);
  else status('');
  return places;
}

function goTo(place) {
  return run($('place-form'), () => nearby(place.latitude, place.longitude, place.coordinates ? 'Around these coordinates' : `Around ${place.name}`));
}

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
  const found = await searchPlaces($('place').value);
  if (found.length) goTo(found[0]);
});

// ---------- Surprise Me ----------

async function surprise() {
  $('retry-row').hidden = true;
  status('Spinning the globe…');
  const data = await api('POST', `${API}/surprise?radius_km=10&limit=30`);
  if (!data.found) {
    status(`Nothing was found after ${data.tries} tries. Spin again?`);
    $('retry-row').hidden = false;
    $('surprise-again').focus();
    return;
  }
  const n = data.cities.length;
  openScene('surprise', 'import', data.cities, {
    title: `Surprise: ${data.country.name}`,
    sub: `${n === 1 ? '1 city' : `${n} cities`} in ${data.country.name}, around ${coordinates(data.center.latitude, data.center.longitude)}`
      + (data.tries > 1 ? ` (found on try ${data.tries})` : ''),
  });
}

$('surprise-me').addEventListener('click', (e) => run(e.currentTarget, surprise));
$('surprise-again').addEventListener('click', (e) => run(e.currentTarget, surprise));

// ---------- Browse my cities ----------

function browse(push = true) {
  return run($('browse'), async () => {
    status('Opening your cities…');
    const data = await api('GET', `${API}/collection`);
    showCollection(data.cities.length);
    openScene('browse', 'browse', data.cities, { title: 'My cities', sub: '' }, push);
  });
}

$('browse').addEventListener('click', () => browse());

// A scene's address opened directly: only the collection can be shown again.
if (location.hash) {
  const wanted = location.hash.slice(1);
  history.replaceState(null, '', location.pathname + location.search);
  if (wanted === 'browse' && Number(root.dataset.collectionCount) > 0) browse();
}

root.dataset.ready = 'true';
