// City Roulette: the welcome screen and the way in and out of a scene, asking before anything is lost.
import { api } from '../js/api.js';
// The offline layer (js/sync.js) loads after the page; it sends what waits and shows the indicator.
const sync = () => import('../js/sync.js');
setTimeout(sync, 3000);
// The modules loaded on demand are kept by the service worker from the first visit, for offline use.
navigator.serviceWorker?.ready.then(({ active }) => active?.postMessage({ type: 'trove:keep',
  urls: ['./commit.js', './place.js'].map((p) => new URL(p, import.meta.url).pathname) }), () => {});
import { formatNumber } from './logic.js';
import { SceneView } from './scene.js';
import { createRouter, parseView, viewPath } from '../js/router.js';

const API = '/api/v1/cities';
const $ = (id) => document.getElementById(id);
const root = $('cities');
const status = (text) => { $('welcome-status').textContent = text; };
const fixed = (n) => Math.abs(n).toFixed(2);
const coordinates = (lat, lon) => `${fixed(lat)}° ${lat < 0 ? 'S' : 'N'}, ${fixed(lon)}° ${lon < 0 ? 'W' : 'E'}`;

let hash = ''; // the scene's view while one is shown
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

// Views (js/router.js): '' welcome, '#browse', '#around/<lat>,<lon>?title=…', '#surprise/<lat>,<lon>?iso=…&country=…'.
const router = createRouter({ onView: (view, how) => showView(view, how) });
const point = (lat, lon) => `${Number(lat).toFixed(4)},${Number(lon).toFixed(4)}`;

function openScene(view, kind, cities, labels, push = true) {
  if (push) router.go(view, { quiet: true });
  else if (router.view !== view) router.go(view, { replace: true, quiet: true });
  hash = view;
  status('');
  scene.show(kind, cities, labels);
}

/** Shows the scene a URL names (at start, and on Back and Forward). */
async function showView(view, how) {
  if (how === 'push') return; // the app opened it itself
  if (hash && view !== hash && how === 'pop') {
    if (!leaving && scene.state?.unsaved) {
      router.go(hash, { quiet: true }); // stay until the person says otherwise
      if (await confirmLeave()) { leaving = true; history.back(); }
      return;
    }
  }
  leaving = false;
  const { name, args: [at = ''], query } = parseView(view);
  const [lat, lon] = at.split(',').map(Number);
  const located = Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
  if (name === 'browse' && Number(root.dataset.collectionCount) > 0) {
    if (hash !== view) await browse(false);
  } else if ((name === 'around' || name === 'surprise') && located && $('around-me').disabled === false) {
    if (hash === view) return;
    await run($('around-me'), () => (name === 'around'
      ? nearby(lat, lon, query.title || 'Around these coordinates', false)
      : surpriseAgain(lat, lon, query, view)));
  } else {
    if (hash) showWelcome();
    if (view) router.go('', { replace: true, quiet: true });
  }
}

function showWelcome() {
  scene.close();
  hash = '';
  $('welcome').hidden = false;
  $('welcome-title').focus();
}

/** A surprise's scene opened again: the cities of its country around its point. */
async function surpriseAgain(lat, lon, query, view) {
  const data = await api('GET', `${API}/nearby?lat=${lat}&lon=${lon}&radius_km=10&limit=30`);
  const cities = query.iso ? data.cities.filter((c) => c.country_code === query.iso) : data.cities;
  const n = cities.length;
  openScene(view, 'import', cities, {
    title: `Surprise: ${query.country || 'somewhere'}`,
    sub: `${n === 1 ? '1 city' : `${n} cities`} in ${query.country || 'this country'}, around ${coordinates(lat, lon)}`,
  }, false);
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
  router.back();
}

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
    status(error.status === 0 && button.id !== 'browse'
      ? `${(button.querySelector('span')?.firstChild?.textContent ?? 'This').trim()} needs the connection to Trove’s server. My cities, with their stars, still open and save on this device.`
      : error.message);
  } finally {
    busy = false;
    button.removeAttribute('aria-busy');
  }
}

async function nearby(latitude, longitude, title, push = true) {
  status('Looking for cities nearby…');
  const data = await api('GET', `${API}/nearby?lat=${latitude}&lon=${longitude}&radius_km=10&limit=30`);
  if (!data.cities.length) {
    status(`No cities within 10 km of ${coordinates(latitude, longitude)}.`);
    return;
  }
  openScene(viewPath('around', point(latitude, longitude), { title }), 'import', data.cities, {
    title,
    sub: `${data.cities.length === 1 ? '1 city' : `${data.cities.length} cities`} within 10 km of ${coordinates(latitude, longitude)}`,
  }, push);
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
  await askPlace(`${why} Type a place name or coordinates instead.`);
}));

// A place typed by hand: place.js, loaded when first asked for (the form shows once it can search).
let placing = null;
async function askPlace(message) {
  status(message);
  try {
    await (placing ??= import('./place.js').then((m) => m.init({ status, coordinates, run, nearby })));
  } catch {
    placing = null;
    status(`${message} Finding a place needs the connection to Trove’s server.`.trim());
    return;
  }
  $('place-form').hidden = false;
  $('choose-place').hidden = true;
  $('place').focus();
}

$('choose-place').addEventListener('click', () => askPlace(''));

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
  const view = viewPath('surprise', point(data.center.latitude, data.center.longitude), { iso: data.country.iso, country: data.country.name });
  openScene(view, 'import', data.cities, {
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
    const data = await (await sync()).read(`${API}/collection`, 'cities'); // offline: the device's copy
    showCollection(data.cities.length);
    openScene('browse', 'browse', data.cities, { title: 'My cities', sub: '' }, push);
  });
}

$('browse').addEventListener('click', () => browse());

router.start();

root.dataset.ready = 'true';
