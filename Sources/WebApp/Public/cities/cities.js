// City Roulette: the welcome screen and the way in and out of a scene, asking before anything is lost.
import { api } from '../js/api.js';
// The offline layer (js/sync.js) loads after the page; it sends what waits and shows the indicator. The mark tells
// the browser tests' weight budget where the first view ends.
const sync = () => import('../js/sync.js');
const afterFirstView = new Promise((resolve) => setTimeout(resolve, 3000)).then(() => {
  performance.mark('trove:after-first-view');
  return sync();
});
// The modules loaded on demand are kept by the service worker from the first visit, for offline use.
navigator.serviceWorker?.ready.then(
  ({ active }) =>
    active?.postMessage({
      type: 'trove:keep',
      urls: ['./commit.js', './collection.js', './place.js', './coords.js', './plan.js', './gestures.js', './tiles.js'].map(
        (p) => new URL(p, import.meta.url).pathname,
      ),
    }),
  () => {},
);
import { $, scrollBehavior } from '../js/dom.js';
import { formatNumber } from '../js/format.js';
import { forgetScene, readScene, storeScene } from './logic.js';
import { SceneView } from './scene.js';
import { createRouter, parseView, viewPath } from '../js/router.js';
import { showModal } from '../js/dom.js';

const API = '/api/v1/cities';
const root = $('cities');
const status = (text) => {
  const line = $('welcome-status');
  line.textContent = text;
  // The place form scrolls the page up to its results (place.js), past this line: a message must not go unseen.
  if (text && line.getBoundingClientRect().top < 0) line.scrollIntoView({ block: 'nearest', behavior: scrollBehavior() });
};
const fixed = (n) => Math.abs(n).toFixed(2);
const coordinates = (lat, lon) => `${fixed(lat)}° ${lat < 0 ? 'S' : 'N'}, ${fixed(lon)}° ${lon < 0 ? 'W' : 'E'}`;

let hash = ''; // the scene's view while one is shown
let leaving = false;
let busy = false;

// Every change to a scene is kept with its history entry and in session storage: opening a city and
// coming Back, or a reload, finds the list as it was.
let keepTimer = 0;
const scene = new SceneView({
  onCommitted(count, imported) {
    showCollection(count);
    forgetScene(sessionStorage, hash);
    if (imported) goBack(true);
  },
  onChange(snapshot) {
    if (!hash) return;
    const kept = { ...snapshot, view: hash };
    clearTimeout(keepTimer);
    keepTimer = setTimeout(() => {
      if (hash === kept.view) router.remember({ scene: kept });
    }, 150);
    storeScene(sessionStorage, hash, kept);
  },
});

function showCollection(count) {
  root.dataset.collectionCount = count;
  $('browse').hidden = count <= 0;
  $('collection-count').textContent = `${formatNumber(count)} in your collection`;
  root.classList.toggle('has-collection', count > 0);
}

// ---------- Scenes and history ----------

// Views (js/router.js): '' welcome, '#browse', '#around/<lat>,<lon>?title=…', '#surprise/<lat>,<lon>?iso=…&country=…'.
const router = createRouter({ onView: (view, how) => showView(view, how) });
const point = (lat, lon) => `${Number(lat).toFixed(4)},${Number(lon).toFixed(4)}`;

function openScene(view, kind, cities, labels, push = true, kept = null) {
  if (push) router.go(view, { quiet: true });
  else if (router.view !== view) router.go(view, { replace: true, quiet: true });
  hash = view;
  status('');
  if (!kept?.state) forgetScene(sessionStorage, view);
  scene.show(kind, cities, labels, kept);
  if (scene.state.kind === 'import') markCollected();
}

/**
 * Marks the cities of an import that are already in the collection (the device's copy offline). An Import made later
 * without the server adds to that copy (collection.js), so where the device has none yet, this answer becomes it,
 * once the offline layer has loaded after the page (it is not part of the first view's weight): with no copy, the
 * import alone would stand for the whole collection.
 */
async function markCollected() {
  const state = scene.state;
  const url = `${API}/collection`;
  const data = await api('GET', url)
    .then((answer) => {
      const keepIfNone = async (s) => (await s.kept(url)) === undefined && !(await s.waiting('cities')) && s.keep(url, answer);
      afterFirstView.then(keepIfNone).catch(() => {});
      return answer;
    })
    .catch((error) => (error.status === 0 ? sync().then((s) => s.read(url, 'cities')) : null))
    .catch(() => null);
  if (data && scene.state === state) scene.setStored(new Map(data.cities.map((c) => [c.geonameid, c.favourite])));
}

/** Shows the scene a URL names (at start, and on Back and Forward). */
async function showView(view, how, data) {
  if (how === 'push') return; // the app opened it itself
  if (hash && view !== hash && how === 'pop') {
    if (!leaving && scene.state?.unsaved) {
      router.go(hash, { quiet: true }); // stay until the person says otherwise
      if (await confirmLeave()) {
        leaving = true;
        router.back();
      }
      return;
    }
  }
  leaving = false;
  const kept = readScene(sessionStorage, view, data);
  if (kept && (kept.state.kind === 'import' || kept.state.dirty)) {
    if (hash !== view) openScene(view, kept.state.kind, [], kept.labels, false, kept);
    return;
  }
  const {
    name,
    args: [at = ''],
    query,
  } = parseView(view);
  const [lat, lon] = at.split(',').map(Number);
  const located = Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
  if (name === 'browse' && Number(root.dataset.collectionCount) > 0) {
    // An untouched My cities is read again (a city's page may have changed it), in the way it was shown.
    if (hash !== view) await browse(false, kept && { ...kept, state: null });
  } else if ((name === 'around' || name === 'surprise') && located && $('around-me').disabled === false) {
    if (hash === view) return;
    await run($('around-me'), () =>
      name === 'around' ? nearby(lat, lon, query.title || 'Around these coordinates', false) : surpriseAgain(lat, lon, query, view),
    );
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

/** A surprise's scene opened again (a link, no kept scene): the cities around its point. */
async function surpriseAgain(lat, lon, query, view) {
  const data = await api('GET', `${API}/nearby?lat=${lat}&lon=${lon}&radius_km=10&limit=30`);
  openScene(view, 'import', data.cities, surpriseLabels(query.country, query.iso, lat, lon), false);
}

const surpriseLabels = (country, iso, lat, lon, tries = 1) => ({
  title: `Surprise: ${country || 'somewhere'}`,
  tail: `around ${coordinates(lat, lon)}${country ? ` in ${country}` : ''}${tries > 1 ? ` (found on try ${tries})` : ''}`,
  country: iso,
});

function confirmLeave() {
  const dialog = $('leave-dialog');
  const importing = scene.state?.kind === 'import';
  $('leave-title').textContent = importing ? 'Leave without importing?' : 'Leave without saving?';
  $('leave-text').textContent = importing
    ? 'Your stars and deletions here are not in your collection yet. Leave them behind?'
    : 'Your changes to your cities are not saved yet. Leave them unsaved?';
  dialog.returnValue = '';
  showModal(dialog);
  return new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'leave'), { once: true }));
}

async function goBack(force = false) {
  if (!force && scene.state?.unsaved && !(await confirmLeave())) return;
  leaving = true;
  forgetScene(sessionStorage, hash);
  router.back();
}

// Reloading or closing the tab with unsaved work asks (the browser's own question); opening a city of
// the list does not: the scene is kept, and Back finds it.
let toCity = false;
$('rows').addEventListener('click', (e) => {
  if (e.target.closest('a.cr-name')) {
    toCity = true;
    setTimeout(() => {
      toCity = false;
    }, 1000);
  }
});
addEventListener('beforeunload', (e) => {
  if (hash && scene.state?.unsaved && !toCity) {
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
    status(
      error.status === 0 && button.id !== 'browse'
        ? `${(button.querySelector('span')?.firstChild?.textContent ?? 'This').trim()} needs the connection to Trove’s server. My cities, with their stars, still open and save on this device.`
        : error.message,
    );
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
  openScene(
    viewPath('around', point(latitude, longitude), { title }),
    'import',
    data.cities,
    {
      title,
      tail: `within 10 km of ${coordinates(latitude, longitude)}`,
      here: { latitude, longitude, radiusKm: 10 },
    },
    push,
  );
}

function locate() {
  return new Promise((resolve) => {
    if (!navigator.geolocation) {
      resolve(null);
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (p) => resolve(p.coords),
      (e) => resolve(e),
      { timeout: 15000, maximumAge: 60000 },
    );
  });
}

$('around-me').addEventListener('click', (e) =>
  run(e.currentTarget, async () => {
    status('Finding where you are…');
    const found = await locate();
    if (found && 'latitude' in found) {
      await nearby(found.latitude, found.longitude, 'Around you');
      return;
    }
    const why = !found
      ? 'This browser cannot tell where you are.'
      : found.code === 1
        ? 'Your location was not shared.'
        : 'Your location is not available right now.';
    await askPlace(`${why} Type a place name or coordinates instead.`);
  }),
);

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
  const { latitude, longitude } = data.center;
  const view = viewPath('surprise', point(latitude, longitude), { iso: data.country.iso, country: data.country.name });
  openScene(view, 'import', data.cities, surpriseLabels(data.country.name, data.country.iso, latitude, longitude, data.tries));
}

$('surprise-me').addEventListener('click', (e) => run(e.currentTarget, surprise));
$('surprise-again').addEventListener('click', (e) => run(e.currentTarget, surprise));

// ---------- Browse my cities ----------

function browse(push = true, kept = null) {
  return run($('browse'), async () => {
    status('Opening your cities…');
    const data = await (await sync()).read(`${API}/collection`, 'cities'); // offline: the device's copy
    showCollection(data.cities.length);
    openScene('browse', 'browse', data.cities, { title: 'My cities', tail: 'in your collection' }, push, kept);
  });
}

$('browse').addEventListener('click', () => browse());
// A page the service worker kept shows the count it was served with; a save still waiting has changed it since.
afterFirstView
  .then(async (s) => (await s.waiting('cities')) && showCollection((await s.read(`${API}/collection`, 'cities')).cities.length))
  .catch(() => {});

// The welcome screen's picture fades in and its buttons come in after it, on arrival only.
if (!location.hash) {
  root.classList.add('is-intro');
  setTimeout(() => root.classList.remove('is-intro'), 2000);
}
router.start();

root.dataset.ready = 'true';
