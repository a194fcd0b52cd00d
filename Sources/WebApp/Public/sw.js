// Trove service worker, served at /sw.js with scope /.
// shell.js registers it as /sw.js?v=<assetVersion>; the caches are named after that
// version, so a new release installs a new worker, which deletes the old caches.
//
//  - /static/<version>/…  cache first (immutable, versioned URLs), cached as they are fetched.
//  - other /static/…      network first, cache as fallback (unversioned, e.g. manifest icons).
//  - page navigations     network first; offline, the cached copy of that page, else the cached /.
//  - the few public, read-only API answers in CACHED_API (exact paths; each query string is kept
//    under its own URL): network first, cache as fallback, so a page's data survives going offline.
//  - downloaded stories (Choose Your Destiny): a story's JSON and pictures, kept in STORIES_CACHE when a
//    page posts {type: 'trove:keep-story', id} and dropped on {type: 'trove:drop-story', id}; a kept
//    story's answers are network first with the cache as fallback, and so is the profile's library
//    list. STORIES_CACHE is not versioned, so a new release does not throw downloaded stories away.
//  - any other /api/…, non-GET and other origins: never touched, never cached.
//
// A page visited before the worker controlled it can post {type: 'trove:keep', urls: [...]} to have
// the worker fetch and keep that page, its versioned assets, its CACHED_API answers and the library list.

const VERSION = new URL(self.location.href).searchParams.get('v') || 'dev';
const STATIC_CACHE = `trove-static-${VERSION}`;
const PAGES_CACHE = `trove-pages-${VERSION}`;
const API_CACHE = `trove-api-${VERSION}`;
const STORIES_CACHE = 'trove-stories';
const STATIC_PREFIX = `/static/${VERSION}/`;
const STORIES_API = '/api/v1/stories/';
const STORY_LIBRARY = '/api/v1/stories/library';

const CACHED_API = new Set(['/api/v1/strategies', '/api/v1/strategies/editions']);

const SHELL_ASSETS = [
  'css/app.css',
  'js/shell.js',
  'js/next.js', // shell.js imports it
  'js/layers.js', // loaded with the first dialog, which may open offline
  'js/api.js',
  'js/toast.js',
  'css/toast.css',
  'js/offline.js',
  'js/sync.js', // the offline layer (issue 18): account.js imports it when signing in or out
  'js/outbox.js', // its sending half, loaded with a first write (also offline)
  'js/sync-logic.js',
].map((path) => STATIC_PREFIX + path);

self.addEventListener('install', (event) => {
  // Requests this worker never answers skip it altogether where the browser can route them (Chromium):
  // a keepalive save sent as a page goes away is otherwise lost on its way through the worker.
  if (typeof event.addRoutes === 'function') {
    event
      .addRoutes({ condition: { not: { requestMethod: 'GET' } }, source: 'network' })
      .catch(() => event.addRoutes({ condition: { urlPattern: '/api/v1/poetry/*' }, source: 'network' }))
      .catch(() => {});
  }
  event.waitUntil(
    (async () => {
      const pages = await caches.open(PAGES_CACHE);
      const assets = await caches.open(STATIC_CACHE);
      // A missing asset must not stop the worker from installing.
      await Promise.allSettled([
        pages.add(new Request('/', { credentials: 'same-origin', cache: 'no-cache' })),
        ...SHELL_ASSETS.map((url) => assets.add(url)),
      ]);
      // The versioned files the home page names (its stylesheet and icons, one per app) come with it: offline, a page
      // never visited opens as the kept home page, whole, whichever page came first.
      const home = await pages.match('/');
      const named = home ? (await home.text()).split('"').filter((part) => part.startsWith(STATIC_PREFIX)) : [];
      await Promise.allSettled([...new Set(named)].filter((url) => !SHELL_ASSETS.includes(url)).map((url) => assets.add(url)));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([STATIC_CACHE, PAGES_CACHE, API_CACHE, STORIES_CACHE]);
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith('trove-') && !keep.has(name)).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (CACHED_API.has(url.pathname)) {
    event.respondWith(networkFirst(request, API_CACHE));
    return;
  }
  if (url.pathname === STORY_LIBRARY) {
    event.respondWith(networkFirst(request, STORIES_CACHE));
    return;
  }
  const storyId = storyOf(url.pathname);
  if (storyId) {
    event.respondWith(storyAnswer(request, storyId));
    return;
  }
  if (url.pathname.startsWith('/api/') || url.pathname === '/sw.js') return;

  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname.startsWith('/static/')) {
    event.respondWith(networkFirst(request, STATIC_CACHE));
  } else if (request.mode === 'navigate') {
    event.respondWith(navigation(request));
  }
});

function cacheable(response) {
  return response && response.ok && response.type === 'basic' && !response.redirected;
}

async function cacheFirst(request) {
  const cache = await caches.open(STATIC_CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (cacheable(response)) await cache.put(request, response.clone());
  return response;
}

async function networkFirst(request, cacheName) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (cacheable(response)) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request, { ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data) return;
  if (data.type === 'trove:keep' && Array.isArray(data.urls)) event.waitUntil(keep(data.urls.slice(0, 32)));
  if (data.type === 'trove:keep-story' && typeof data.id === 'string') event.waitUntil(keepStory(data.id));
  if (data.type === 'trove:drop-story' && typeof data.id === 'string') event.waitUntil(dropStory(data.id));
});

// ---------- Downloaded stories ----------

/** The story id of a story's JSON or one of its resources (/api/v1/stories/{id}[/resources/…]), else null. */
function storyOf(pathname) {
  if (!pathname.startsWith(STORIES_API)) return null;
  const rest = pathname.slice(STORIES_API.length).split('/');
  const id = rest[0];
  if (!id || id === 'library' || id === 'schema.json') return null;
  if (rest.length === 1 || (rest.length >= 3 && rest[1] === 'resources')) return decodeURIComponent(id);
  return null;
}

const storyURL = (id) => `${STORIES_API}${encodeURIComponent(id)}`;

/** A kept story's JSON or picture: network first, the kept copy offline. Stories not kept pass through. */
async function storyAnswer(request, id) {
  const cache = await caches.open(STORIES_CACHE);
  if (!(await cache.match(storyURL(id), { ignoreVary: true }))) return fetch(request);
  return networkFirst(request, STORIES_CACHE);
}

/** Keeps a story's JSON and every picture it names (its cover and chapters' pictures on this server). */
async function keepStory(id) {
  const cache = await caches.open(STORIES_CACHE);
  const response = await fetch(storyURL(id), { credentials: 'same-origin', cache: 'no-cache', headers: { Accept: 'application/json' } });
  if (!cacheable(response)) return;
  const text = await response.clone().text();
  await cache.put(storyURL(id), response);
  const prefix = `${storyURL(id)}/resources/`;
  const pictures = new Set();
  for (const match of text.matchAll(/"(?:picture_url|cover_url)"\s*:\s*"([^"]+)"/g)) {
    const url = new URL(JSON.parse(`"${match[1]}"`), self.location.origin);
    if (url.origin === self.location.origin && url.pathname.startsWith(prefix)) pictures.add(url.pathname);
  }
  await Promise.allSettled(
    [...pictures].map(async (path) => {
      if (await cache.match(path)) return;
      const picture = await fetch(path, { credentials: 'same-origin' });
      if (cacheable(picture)) await cache.put(path, picture);
    }),
  );
}

/** Forgets a story removed from the library: its JSON and its pictures. */
async function dropStory(id) {
  const cache = await caches.open(STORIES_CACHE);
  const base = storyURL(id);
  const requests = await cache.keys();
  await Promise.all(
    requests
      .filter((request) => {
        const path = new URL(request.url).pathname;
        return path === base || path.startsWith(`${base}/resources/`);
      })
      .map((request) => cache.delete(request)),
  );
}

/** Fetches and caches what a page asked to keep, each URL only into the cache its kind belongs to. */
async function keep(urls) {
  await Promise.allSettled(
    urls.map(async (raw) => {
      if (typeof raw !== 'string') return;
      const url = new URL(raw, self.location.origin);
      url.hash = '';
      if (url.origin !== self.location.origin) return;
      let cacheName;
      if (url.pathname.startsWith(STATIC_PREFIX)) cacheName = STATIC_CACHE;
      else if (CACHED_API.has(url.pathname)) cacheName = API_CACHE;
      else if (url.pathname === STORY_LIBRARY) cacheName = STORIES_CACHE;
      else if (!url.pathname.startsWith('/api/') && !url.pathname.startsWith('/static/') && url.pathname !== '/sw.js')
        cacheName = PAGES_CACHE;
      else return;
      const cache = await caches.open(cacheName);
      if (cacheName === STATIC_CACHE && (await cache.match(url.href))) return;
      const response = await fetch(url.href, { credentials: 'same-origin', cache: 'no-cache' });
      if (cacheable(response)) await cache.put(url.href, response);
    }),
  );
}

async function navigation(request) {
  const cache = await caches.open(PAGES_CACHE);
  try {
    const response = await fetch(request);
    if (cacheable(response)) await cache.put(request, response.clone());
    return response;
  } catch {
    const cached = (await cache.match(request, { ignoreVary: true })) || (await cache.match('/', { ignoreVary: true }));
    if (cached) return cached;
    return new Response(
      '<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
        '<title>Offline · Trove</title><h1>You are offline</h1><p>Trove will be back when your connection is.</p>',
      { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } },
    );
  }
}
