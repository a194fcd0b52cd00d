// See offline.js.
import { withNext } from './next.js';

// The page's first errors (the first 20), kept for a look once it has loaded: WebKit's WebDriver can only look then
// (tests/browser/browser_support.py, CONSOLE_CAPTURE). Every page runs this module before its own.
const early = (globalThis.troveEarlyErrors = []);
const keep = (m) => early.length < 20 && early.push(m);
addEventListener(
  'error',
  (e) =>
    keep(
      e instanceof ErrorEvent
        ? `${e.filename}:${e.lineno}:${e.colno} Uncaught ${e.message}`
        : `${e.target?.currentSrc || e.target?.src || e.target?.href} - Failed to load resource`,
    ),
  true,
);
addEventListener('unhandledrejection', (e) =>
  keep(`Uncaught (in promise) ${e.reason instanceof Error ? `${e.reason.name}: ${e.reason.message}` : e.reason}`),
);
document.addEventListener('securitypolicyviolation', (e) =>
  keep(`Refused by the Content-Security-Policy (${e.violatedDirective}): ${e.blockedURI}`),
);

const v = new URL(import.meta.url).pathname.match(/^\/static\/([^/]+)\/js\/shell\.js$/)?.[1];
const p = `/static/${v}/`;
const sw = navigator.serviceWorker;
if (sw) {
  sw.register(v ? `/sw.js?v=${encodeURIComponent(v)}` : '/sw.js', { scope: '/', updateViaCache: 'none' }).catch((error) =>
    console.warn('Service worker registration failed:', error),
  );
  addEventListener('load', () =>
    sw.ready.then(
      ({ active }) => {
        const u = [
          ...new Set([
            location.pathname + location.search,
            ...performance
              .getEntriesByType('resource')
              .map((e) => new URL(e.name).pathname)
              .filter((f) => v && f.startsWith(p)),
          ]),
        ];
        for (let i = 0; i < u.length; i += 32) active?.postMessage({ type: 'trove:keep', urls: u.slice(i, i + 32) });
      },
      () => {},
    ),
  );
}
const off = () => import('./offline.js');
if (sw?.controller || !navigator.onLine) fetch('/health', { method: 'HEAD', cache: 'no-store' }).then((r) => r.ok || off(), off);
addEventListener('offline', off);
// A sign-in or sign-up link returns to the view it was tapped on (the address at the time of the tap).
addEventListener(
  'click',
  (event) => {
    const link = event.target.closest?.('a[href^="/login"], a[href^="/signup"]');
    const href = link && withNext(link.pathname, location.pathname + location.search + location.hash);
    if (href) link.setAttribute('href', href);
  },
  true,
);

// Signed in or out in another tab (js/account.js marks it): this page would write into the new profile, so it stops
// writing (troveStale) and loads again. A frozen or cached tab checks on its return.
const CHANGED = 'trove.profile-changed';
const mark = () => {
  try {
    return localStorage.getItem(CHANGED);
  } catch {
    return null;
  }
};
const seen = mark();
const stale = () => {
  if (globalThis.troveStale || mark() === seen) return;
  globalThis.troveStale = true;
  location.reload();
};
addEventListener('storage', (e) => e.key === CHANGED && stale());
document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && stale());
addEventListener('pageshow', (e) => e.persisted && stale());
