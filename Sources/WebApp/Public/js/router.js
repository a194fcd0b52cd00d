// Every view of an app is a URL: the page's path plus a hash naming the view ('#all', '#card/12',
// '#all?q=walk'); no hash is the app's first view. One router per page:
//  - go(view) pushes a history entry (moving between views), go(view, {replace: true}) replaces it
//    (a refinement of the same view, such as a search box);
//  - Back/Forward (popstate) and a hash changed by hand show the view the URL names;
//  - a deep link opened directly (a pasted link) gets the app's first view beneath it, so Back from it
//    stays in the app once and leaves the app only from its first view;
//  - a reload keeps the URL, so the page opens the same view.
// Each entry carries {troveDepth, data}: how many of the app's views lie beneath it, and what the app
// stored with it (go's `data`), handed back when Back or Forward returns to it.

/** Splits a view ('card/12?x=1') into {name, args, query}; '' is the first view. */
export function parseView(view) {
  const text = String(view || '').replace(/^#/, '');
  const cut = text.indexOf('?');
  const path = cut < 0 ? text : text.slice(0, cut);
  const query = Object.fromEntries(new URLSearchParams(cut < 0 ? '' : text.slice(cut + 1)));
  const [name = '', ...args] = path.split('/').map(decode);
  return { name, args, query };
}

/** A view from a name, arguments and a query: viewPath('card', 12) → 'card/12'. Empty query values are left out. */
export function viewPath(name, ...rest) {
  const query = rest.length && rest[rest.length - 1] && typeof rest[rest.length - 1] === 'object' ? rest.pop() : {};
  const path = [name, ...rest].filter((part) => part !== undefined && part !== null && part !== '')
    .map((part) => encodeURIComponent(String(part))).join('/');
  const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== undefined && value !== null && value !== '')).toString();
  return search ? `${path}?${search}` : path;
}

/** The view a location's hash names, in the form go() takes. */
export const viewOf = (hash) => String(hash || '').replace(/^#/, '');

function decode(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * createRouter({onView, home, win}):
 *  onView(view, how, data): show `view`; how is 'start', 'push', 'replace' or 'pop'; data is what go()
 *    stored with the entry (null for an entry the app never made: a typed hash, a pasted link).
 *  home: the first view ('' by default) put beneath a deep link opened directly; null: put nothing.
 */
export function createRouter({ onView, home = '', win = globalThis.window } = {}) {
  const { history, location } = win;
  let depth = 0;
  let current = null;
  let started = false;

  const url = (view) => (view ? `#${view}` : location.pathname + location.search);
  const entry = (data) => ({ ...(history.state || {}), troveDepth: depth, data: data === undefined ? null : data });
  const dataOf = (state) => (state && state.data !== undefined ? state.data : null);

  function show(how) {
    const view = viewOf(location.hash);
    const state = history.state;
    if (how === 'pop' && view === current) return; // the hashchange after a popstate for the same move
    current = view;
    if (onView) onView(view, how, dataOf(state));
  }

  function onPop() {
    const state = history.state;
    if (state && typeof state.troveDepth === 'number') {
      depth = state.troveDepth;
    } else {
      // A hash typed by hand makes a new entry after the current one.
      depth += 1;
      history.replaceState(entry(null), '', location.href);
    }
    show('pop');
  }

  return {
    get view() { return current; },
    get depth() { return depth; },
    /** Shows the view in the URL and listens for Back and Forward. */
    start() {
      if (started) return;
      started = true;
      const state = history.state;
      const view = viewOf(location.hash);
      if (state && typeof state.troveDepth === 'number') {
        depth = state.troveDepth; // a reload, or Back into this page from another
      } else if (home !== null && view !== viewOf(home)) {
        depth = 0;
        history.replaceState(entry(null), '', url(viewOf(home)));
        depth = 1;
        history.pushState(entry(null), '', url(view));
      } else {
        depth = 0;
        history.replaceState(entry(null), '', location.href);
      }
      win.addEventListener('popstate', onPop);
      win.addEventListener('hashchange', onPop);
      show('start');
    },
    /** Moves to `view`: a new history entry, or with {replace: true} the same one; {quiet: true} does not call onView. */
    go(view, { replace = false, quiet = false, data } = {}) {
      const next = viewOf(view);
      if (next === current && !replace && data === undefined) return;
      if (!replace) depth += 1;
      const state = { troveDepth: depth, data: data === undefined ? null : data };
      if (replace) history.replaceState(state, '', url(next));
      else history.pushState(state, '', url(next));
      current = next;
      if (!quiet && onView) onView(next, replace ? 'replace' : 'push', state.data);
    },
    /** Keeps `data` with the current entry (given back by onView when Back or Forward returns to it). */
    remember(data) {
      history.replaceState(entry(data), '', location.href);
    },
    /** The in-app Back: the previous view of this app, or the first view when there is none. */
    back(fallback = home || '') {
      if (depth > 0) history.back();
      else this.go(fallback, { replace: true });
    },
  };
}
