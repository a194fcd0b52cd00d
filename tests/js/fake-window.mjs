// A browser's session history for one page, for the router's and the layers' unit tests (not a test file itself).

/** A browser's session history for one page, enough for the router: entries of {url, state}. */
export function fakeWindow(href) {
  const listeners = { popstate: [], hashchange: [] };
  const entries = [{ url: new URL(href), state: null }];
  let index = 0;
  const here = () => entries[index];
  const win = {
    location: {
      get hash() {
        return here().url.hash;
      },
      get pathname() {
        return here().url.pathname;
      },
      get search() {
        return here().url.search;
      },
      get href() {
        return here().url.href;
      },
    },
    history: {
      get state() {
        return here().state;
      },
      get length() {
        return entries.length;
      },
      pushState(state, _title, url) {
        entries.splice(index + 1);
        entries.push({ url: new URL(url, here().url), state: structuredClone(state) });
        index += 1;
      },
      replaceState(state, _title, url) {
        entries[index] = { url: new URL(url, here().url), state: structuredClone(state) };
      },
      back() {
        win.traverse(-1);
      },
      forward() {
        win.traverse(1);
      },
      go(step) {
        if (!win.queued) win.traverse(step);
        else if (win.oneAtATime)
          win.queued.splice(0, Infinity, step); // WebKit: a later go() cancels one not yet run
        else win.queued.push(step);
      },
    },
    addEventListener(type, listener) {
      listeners[type].push(listener);
    },
    /** Back (-1) or Forward (1): a popstate, then a hashchange when the hash differs, as browsers do. */
    traverse(step) {
      const before = here().url.hash;
      if (index + step < 0) {
        win.left = true;
        return;
      }
      if (index + step >= entries.length) return;
      index += step;
      const changed = here().url.hash !== before; // of the traversal itself, whatever the listeners push
      for (const listener of listeners.popstate) listener({ state: here().state });
      if (changed) for (const listener of listeners.hashchange) listener({});
    },
    /** A hash typed in the address bar: a new entry without state, popstate and hashchange. */
    typeHash(hash) {
      entries.splice(index + 1);
      entries.push({ url: new URL(hash, here().url), state: null });
      index += 1;
      for (const listener of listeners.popstate) listener({ state: null });
      for (const listener of listeners.hashchange) listener({});
    },
    reload() {
      listeners.popstate = [];
      listeners.hashchange = [];
    },
    /** history.go() as browsers run it, later: `queued = []` holds the steps until `flush()`. */
    queued: null,
    flush() {
      while (win.queued.length) win.traverse(win.queued.shift());
    },
    oneAtATime: false,
    entries,
    get index() {
      return index;
    },
    left: false,
  };
  return win;
}
