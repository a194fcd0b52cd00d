// See offline.js.
import { withNext } from './next.js';

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
// A sign-in or sign-up link returns to the view it was tapped on (the address at the time of the tap).
addEventListener('click', (event) => {
  const link = event.target.closest?.('a[href^="/login"], a[href^="/signup"]');
  const href = link && withNext(link.pathname, location.pathname + location.search + location.hash);
  if (href) link.setAttribute('href', href);
}, true);
