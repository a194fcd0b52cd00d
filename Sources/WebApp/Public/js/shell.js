// See offline.js.
const v = new URL(import.meta.url).pathname.match(/^\/static\/([^/]+)\/js\/shell\.js$/)?.[1];
const p = `/static/${v}/`;
const sw = navigator.serviceWorker;
if (sw) {
  sw.register(v ? `/sw.js?v=${encodeURIComponent(v)}` : '/sw.js', { scope: '/', updateViaCache: 'none' })
    .catch((error) => console.warn('Service worker registration failed:', error));
  addEventListener('load', () => sw.ready.then(({ active }) => {
    const u = [...new Set([location.pathname + location.search, ...performance.getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname).filter((f) => v && f.startsWith(p))])];
    for (let i = 0; i < u.length; i += 32) active?.postMessage({ type: 'trove:keep', urls: u.slice(i, i + 32) });
  }, () => {}));
}
const off = () => import('./offline.js');
if (sw?.controller || !navigator.onLine) fetch('/health', { method: 'HEAD', cache: 'no-store' }).then((r) => r.ok || off(), off);
addEventListener('offline', off);
