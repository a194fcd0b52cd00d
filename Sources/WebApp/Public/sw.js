// Trove service worker, served at /sw.js with scope /.
// shell.js registers it as /sw.js?v=<assetVersion>; the caches are named after that
// version, so a new release installs a new worker, which deletes the old caches.
//
//  - /static/<version>/…  cache first (immutable, versioned URLs), cached as they are fetched.
//  - other /static/…      network first, cache as fallback (unversioned, e.g. manifest icons).
//  - page navigations     network first; offline, the cached copy of that page, else the cached /.
//  - the few public, read-only API answers in CACHED_API (exact paths; each query string is kept
//    under its own URL): network first, cache as fallback, so a page's data survives going offline.
//  - any other /api/…, non-GET and other origins: never touched, never cached.
//
// A page visited before the worker controlled it can post {type: 'trove:keep', urls: [...]} to have
// the worker fetch and keep that page, its versioned assets and its CACHED_API answers.

const VERSION = new URL(self.location.href).searchParams.get('v') || 'dev';
const STATIC_CACHE = `trove-static-${VERSION}`;
const PAGES_CACHE = `trove-pages-${VERSION}`;
const API_CACHE = `trove-api-${VERSION}`;
const STATIC_PREFIX = `/static/${VERSION}/`;

const CACHED_API = new Set([
  '/api/v1/strategies',
  '/api/v1/strategies/editions',
]);

const SHELL_ASSETS = [
  'css/app.css',
  'js/shell.js',
  'js/api.js',
  'icons/icon.svg',
  'icons/apps/strategies.svg',
  'icons/apps/yoga.svg',
  'icons/apps/stories.svg',
  'icons/apps/poetry.svg',
  'icons/apps/cities.svg',
].map((path) => STATIC_PREFIX + path);

self.addEventListener('install', (event) => {
  // Requests this worker never answers skip it altogether where the browser can route them (Chromium):
  // a keepalive save sent as a page goes away is otherwise lost on its way through the worker.
  if (typeof event.addRoutes === 'function') {
    event.addRoutes({ condition: { not: { requestMethod: 'GET' } }, source: 'network' })
      .catch(() => event.addRoutes({ condition: { urlPattern: '/api/v1/poetry/*' }, source: 'network' }))
      .catch(() => {});
  }
  event.waitUntil((async () => {
    const pages = await caches.open(PAGES_CACHE);
    const assets = await caches.open(STATIC_CACHE);
    // A missing asset must not stop the worker from installing.
    await Promise.allSettled([
      pages.add(new Request('/', { credentials: 'same-origin', cache: 'no-cache' })),
      ...SHELL_ASSETS.map((url) => assets.add(url)),
    ]);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const keep = new Set([STATIC_CACHE, PAGES_CACHE, API_CACHE]);
    const names = await caches.keys();
    await Promise.all(
      names.filter((name) => name.startsWith('trove-') && !keep.has(name)).map((name) => caches.delete(name)),
    );
    await self.clients.claim();
  })());
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
  if (!data || data.type !== 'trove:keep' || !Array.isArray(data.urls)) return;
  event.waitUntil(keep(data.urls.slice(0, 32)));
});

/** Fetches and caches what a page asked to keep, each URL only into the cache its kind belongs to. */
async function keep(urls) {
  await Promise.allSettled(urls.map(async (raw) => {
    if (typeof raw !== 'string') return;
    const url = new URL(raw, self.location.origin);
    url.hash = '';
    if (url.origin !== self.location.origin) return;
    let cacheName;
    if (url.pathname.startsWith(STATIC_PREFIX)) cacheName = STATIC_CACHE;
    else if (CACHED_API.has(url.pathname)) cacheName = API_CACHE;
    else if (!url.pathname.startsWith('/api/') && !url.pathname.startsWith('/static/') && url.pathname !== '/sw.js') cacheName = PAGES_CACHE;
    else return;
    const cache = await caches.open(cacheName);
    if (cacheName === STATIC_CACHE && (await cache.match(url.href))) return;
    const response = await fetch(url.href, { credentials: 'same-origin', cache: 'no-cache' });
    if (cacheable(response)) await cache.put(url.href, response);
  }));
}

async function navigation(request) {
  const cache = await caches.open(PAGES_CACHE);
  try {
    const response = await fetch(request);
    if (cacheable(response)) await cache.put(request, response.clone());
    return response;
  } catch {
    const cached = (await cache.match(request, { ignoreVary: true }))
      || (await cache.match('/', { ignoreVary: true }));
    if (cached) return cached;
    return new Response(
      '<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
        + '<title>Offline · Trove</title><h1>You are offline</h1><p>Trove will be back when your connection is.</p>',
      { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } },
    );
  }
}
