// Each view of an app is a URL: the page plus a hash ('#all', '#card/12', '#all?q=walk'; none is the
// first view). go() pushes an entry, go(v, {replace: true}) refines the current one; Back, Forward and a
// typed hash call onView(view, how, data). Entries keep {troveDepth, data}: how many of the app's views
// lie beneath, and what the app kept with it. Nothing is pushed without a person's action: WebKit skips
// such entries on Back (a guard against history stuffing), so a pasted deep link is the app's first entry.

/** 'card/12?x=1' → {name: 'card', args: ['12'], query: {x: '1'}}. */
export function parseView(view) {
  const text = viewOf(view);
  const cut = text.indexOf('?');
  const [name = '', ...args] = (cut < 0 ? text : text.slice(0, cut)).split('/').map(decode);
  return { name, args, query: Object.fromEntries(new URLSearchParams(cut < 0 ? '' : text.slice(cut + 1))) };
}

/** viewPath('card', 12) → 'card/12'; a last object argument is the query (empty values left out). */
export function viewPath(...parts) {
  const query = parts.length && typeof parts[parts.length - 1] === 'object' ? parts.pop() : {};
  const path = parts
    .filter((p) => p !== undefined && p !== null && p !== '')
    .map((p) => encodeURIComponent(String(p)))
    .join('/');
  const search = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '')).toString();
  return search ? `${path}?${search}` : path;
}

export const viewOf = (hash) => String(hash || '').replace(/^#/, '');

function decode(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** how: 'start', 'push', 'replace' or 'pop'; data: what go() kept with the entry (null if the app made none). */
export function createRouter({ onView, home = '', win = globalThis.window, layers = () => globalThis.troveLayers /* ./layers.js */ } = {}) {
  const { history, location } = win;
  let depth = 0;
  let current = null;
  const url = (view) => (view ? `#${view}` : location.pathname + location.search);
  const keep = (data = null) => history.replaceState({ ...history.state, troveDepth: depth, data }, '', location.href);
  const show = (how) => {
    const view = viewOf(location.hash);
    if (how === 'pop' && view === current) return; // the hashchange after its popstate
    current = view;
    if (onView) onView(view, how, (history.state && history.state.data) ?? null);
  };
  const later = (step) => (layers() ? layers().after(step) : step());
  const onPop = () => {
    if (layers()?.popping()) return;
    const state = history.state;
    if (state && typeof state.troveDepth === 'number') depth = state.troveDepth;
    else {
      depth += 1;
      keep();
    } // a hash typed by hand: a new entry
    show('pop');
  };
  return {
    get view() {
      return current;
    },
    get depth() {
      return depth;
    },
    start() {
      const state = history.state;
      if (state && typeof state.troveDepth === 'number')
        depth = state.troveDepth; // a reload
      else keep();
      win.addEventListener('popstate', onPop);
      win.addEventListener('hashchange', onPop);
      if (history.state?.troveLayer) history.back(); // reloaded with a dialog open
      show('start');
    },
    /** {replace}: the same entry; {quiet}: no onView; {data}: kept with the entry. */
    go(view, { replace = false, quiet = false, data } = {}) {
      const next = viewOf(view);
      if (next === current && !replace && data === undefined) return;
      if (!replace) depth += 1;
      const state = { troveDepth: depth, data: data ?? null };
      // A view opened as its dialog closes takes the dialog's entry, or Back would step onto it first.
      const spent = () => (history.state?.troveLayer ?? 0) > (layers()?.openCount() ?? 0);
      later(() => history[replace || spent() ? 'replaceState' : 'pushState'](state, '', url(next)));
      current = next;
      if (!quiet && onView) onView(next, replace ? 'replace' : 'push', state.data);
    },
    remember: keep,
    /** The in-app Back: the previous view, or `home` in place of this one when it is the app's first entry. */
    back(fallback = home || '') {
      if (depth > 0) later(() => history.go(-1 - (layers()?.openCount() ?? 0)));
      else this.go(fallback, { replace: true });
    },
  };
}
