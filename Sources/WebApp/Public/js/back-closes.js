// A layer of a page's own (a menu, a mode of a list) that Back closes as it closes a dialog (./layers.js), which
// is loaded only when such a layer first opens.

/** `close()` closes the layer when Back is pressed, `isOpen()` says whether it is open. */
export function backCloses(close, isOpen) {
  let layer = null;
  return {
    /** The layer opened: Back now closes it. */
    opened() {
      layer ??= import('./layers.js').then((m) => layer && m.openLayer({ close, isOpen }));
    },
    /** The layer closed some other way: its step of Back goes. */
    closed() {
      layer?.then((open) => open?.closed());
      layer = null;
    },
  };
}
