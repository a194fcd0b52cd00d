// Back over an open dialog or sheet, as on a phone. Opening one pushes an entry at the same address (its state's
// `troveLayer` counts the layers open); Back closes the newest layer instead of leaving the view; a layer closed
// any other way takes its entry off again. Loaded when the first layer opens (dom.js's showModal), so it weighs
// nothing on a page's first view; the router reads `openCount` as `globalThis.troveLayers`.

const level = (history) => history.state?.troveLayer ?? 0;

/** The layers of one window (`win`: what it uses of a window, for the unit tests). */
export function createLayers(win = globalThis) {
  const open = []; // {close, isOpen}, the newest last
  let listening = false;
  let popPending = false; // a history.go() of ours whose popstate has not come yet
  let scrolling = null; // the view entry's scroll restoration, 'manual' while layers are above it
  const afterPop = []; // what waits for it: the router's entry for a view opened meanwhile

  /** Makes the entries agree with the open layers: back over closed ones' entries, or one entry for new ones. */
  function settle() {
    const entries = level(win.history);
    if (!listening) win.addEventListener('popstate', onPop);
    listening = true;
    if (entries > open.length) {
      popPending = true;
      win.history.go(open.length - entries);
    } else if (entries < open.length) {
      // Stepping back to the view must not scroll it to where it was when the layer opened.
      if (entries === 0) (scrolling = win.history.scrollRestoration), (win.history.scrollRestoration = 'manual');
      win.history.pushState({ ...win.history.state, troveLayer: open.length }, '', win.location.href);
    }
  }

  function restoreScroll() {
    if (scrolling && level(win.history) === 0) (win.history.scrollRestoration = scrolling), (scrolling = null);
  }

  /** The person's Back: the layers above `entries` close, newest first, until one keeps itself open (to ask first). */
  function closeAbove(entries) {
    while (open.length > entries && !open.at(-1).keeps?.()) open.pop().close();
  }

  function onPop() {
    if (!popPending) closeAbove(level(win.history));
    popPending = false;
    for (const step of afterPop.splice(0)) step();
    settle(); // our own step back done, Forward onto a closed layer's entry (nothing to reopen there), or a kept layer's entry back
    restoreScroll();
  }

  function openLayer(layer) {
    open.push(layer);
    if (!popPending) settle();
    return {
      closed() {
        const index = open.indexOf(layer);
        if (index < 0) return; // Back closed it
        open.splice(index, 1);
        if (!popPending) settle();
      },
    };
  }

  return {
    /**
     * A layer opens: `close()` closes it on Back, unless its `keeps()` answers true; `isOpen()` says whether it is;
     * call `closed()` once it closes.
     */
    openLayer,
    /**
     * An open <dialog>, which Back closes as its Cancel would (dom.js's showModal calls `closed()`), unless `keeps()`
     * answers true.
     */
    track: (dialog, keeps) => dialog.open && openLayer({ close: () => dialog.close(), isOpen: () => dialog.open, keeps }),
    /** How many layers are open (not counting one closing, whose entry is on its way off). */
    openCount: () => open.filter((layer) => layer.isOpen()).length,
    /**
     * Runs `step` (the router's history change) now, or after our step back over a closed layer's entry: a second
     * history.go() before the first has run cancels it in WebKit.
     */
    after(step) {
      if (popPending) afterPop.push(step);
      else step(), restoreScroll();
    },
    /** Whether a popstate is our own step back (the router does not show a view for it). */
    popping: () => popPending,
  };
}

globalThis.troveLayers = createLayers();
export const { openLayer, track } = globalThis.troveLayers;
