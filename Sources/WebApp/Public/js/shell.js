// Trove shell: registers the service worker, nothing else.
// The asset version is read from this module's own URL (/static/<version>/js/shell.js)
// and passed to the worker, which names its caches after it: a new version installs a
// new worker that drops the old caches.
if ('serviceWorker' in navigator) {
  const match = new URL(import.meta.url).pathname.match(/^\/static\/([^/]+)\/js\/shell\.js$/);
  const script = match ? `/sw.js?v=${encodeURIComponent(match[1])}` : '/sw.js';
  navigator.serviceWorker
    .register(script, { scope: '/', updateViaCache: 'none' })
    .catch((error) => console.warn('Service worker registration failed:', error));
}
