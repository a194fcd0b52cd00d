// Trove shared toasts: a short status line at the bottom of the screen, optionally with an Undo.
//
// - Announced: the region is a polite live region (role=status), so a screen reader reads each toast.
// - Above dialogs: a modal <dialog> sits in the top layer and makes the rest of the page inert, so a toast
//   outside it would be drawn under its backdrop, could not be clicked and would not be read. While a modal
//   dialog is open the region lives inside it (the last one opened), and goes back to <body> when it closes.
// - Undo: `undoable()` shows what was removed with an Undo button for at least 5 seconds (longer while the
//   toast has the focus). The app removes the thing from the page at once and only sends
//   the removal (`commit`) when the toast goes away, or at once with `keepalive` when the page is hidden or
//   closed, so Undo puts it back exactly without asking the server for anything.

const UNDO_TIMEOUT = 6000;
let region;
const modals = []; // open modal dialogs, in the order they opened
const pending = new Set(); // undoable removals not yet committed

function ensureRegion() {
  if (!region) {
    region = document.createElement('div');
    region.className = 'toast-region';
    region.setAttribute('role', 'status');
    region.setAttribute('aria-live', 'polite');
    watchDialogs();
  }
  place();
  return region;
}

/** Puts the region in the topmost open modal dialog, or at the end of <body>. */
function place() {
  if (!region) return;
  for (let i = modals.length - 1; i >= 0; i -= 1) if (!modals[i].open || !modals[i].isConnected) modals.splice(i, 1);
  const home = modals[modals.length - 1] || document.body;
  if (region.parentNode !== home || region.nextSibling) home.append(region);
}

const isModal = (dialog) => {
  try { return dialog.matches(':modal'); } catch { return dialog.open; }
};

function watchDialogs() {
  for (const dialog of document.querySelectorAll('dialog[open]')) if (isModal(dialog)) modals.push(dialog);
  new MutationObserver((records) => {
    let changed = false;
    for (const { target } of records) {
      if (target.tagName !== 'DIALOG') continue;
      const at = modals.indexOf(target);
      if (at >= 0) modals.splice(at, 1);
      if (target.open && isModal(target)) modals.push(target);
      changed = true;
    }
    if (changed) place();
  }).observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: ['open'] });
}

function dismiss(item) {
  if (!item.isConnected || item.classList.contains('leaving')) return;
  item.classList.add('leaving');
  setTimeout(() => item.remove(), 250);
}

/**
 * Shows a short, polite status message at the bottom of the screen; returns its element.
 * With `action` ({ label, run, keys }), the toast has a button that runs it and dismisses the toast;
 * `onTimeout` runs when it goes away on its own.
 */
export function toast(message, { timeout = 4000, action, onTimeout } = {}) {
  const home = ensureRegion();
  const item = document.createElement('div');
  item.className = 'toast';
  const text = document.createElement('span');
  text.className = 'toast-text';
  text.textContent = message;
  item.append(text);
  if (action) {
    item.classList.add('has-action');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'toast-action';
    button.textContent = action.label;
    if (action.keys) button.setAttribute('aria-keyshortcuts', action.keys);
    button.addEventListener('click', () => {
      dismiss(item);
      action.run();
    });
    item.append(button);
  }
  home.append(item);
  if (timeout > 0) holdFor(item, timeout, () => { dismiss(item); if (onTimeout) onTimeout(); });
  return item;
}

/**
 * Runs `done` after `ms`, but not while the toast holds the focus (someone who tabbed to its button gets the
 * time to use it). Hovering does not hold it: a mouse resting where toasts appear would keep one for good.
 */
function holdFor(item, ms, done) {
  let timer = 0;
  let left = ms;
  let started = 0;
  let holds = 0;
  const run = () => { started = Date.now(); timer = setTimeout(done, left); };
  const hold = () => {
    holds += 1;
    if (holds === 1 && timer) { clearTimeout(timer); timer = 0; left = Math.max(2000, left - (Date.now() - started)); }
  };
  const release = () => {
    holds = Math.max(0, holds - 1);
    if (!holds && !timer && item.isConnected) run();
  };
  item.addEventListener('focusin', hold);
  item.addEventListener('focusout', release);
  run();
  item.stop = () => { clearTimeout(timer); timer = 0; holds = 1; };
}

/**
 * A removal that can be undone. The caller has already taken the thing off the page; this shows `message`
 * with an Undo button. Undo calls `undo()`; otherwise `commit({ keepalive })` is called once, when the toast
 * times out (keepalive false) or when the page is hidden or left first (keepalive true: send the request
 * with fetch's keepalive so it outlives the page). Ctrl+Z / ⌘Z undoes the latest one outside text fields.
 * Returns { undo, commit } to settle it early (commit() is a no-op once it is settled).
 */
export function undoable(message, { undo, commit, timeout = UNDO_TIMEOUT }) {
  let settled = false;
  let item = null;
  const entry = {
    at: Date.now(),
    undo() {
      if (settled) return;
      settled = true;
      pending.delete(entry);
      if (item) { item.stop?.(); dismiss(item); }
      undo();
    },
    commit(keepalive = false) {
      if (settled) return;
      settled = true;
      pending.delete(entry);
      if (item) { item.stop?.(); dismiss(item); }
      try {
        const sent = commit({ keepalive });
        if (sent && typeof sent.catch === 'function') sent.catch(() => {});
      } catch {
        // The app reports its own failures.
      }
    },
  };
  pending.add(entry);
  watchPage();
  item = toast(message, {
    timeout: Math.max(5000, timeout),
    action: { label: 'Undo', keys: 'Control+Z Meta+Z', run: () => entry.undo() },
    onTimeout: () => entry.commit(false),
  });
  return { undo: () => entry.undo(), commit: () => entry.commit(false) };
}

/** Sends every removal still waiting for its Undo to run out, now (before a reload of the data, say). */
export function commitPending({ keepalive = false } = {}) {
  for (const entry of [...pending]) entry.commit(keepalive);
}

let watching = false;
function watchPage() {
  if (watching) return;
  watching = true;
  const leave = () => commitPending({ keepalive: true });
  window.addEventListener('pagehide', leave);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') leave(); });
  window.addEventListener('keydown', (e) => {
    if (!pending.size || e.defaultPrevented || e.altKey || e.shiftKey || !(e.ctrlKey || e.metaKey)) return;
    if (e.key !== 'z' && e.key !== 'Z') return;
    const t = e.target;
    if (t && t.closest && t.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    [...pending].sort((a, b) => b.at - a.at)[0].undo();
  }, true);
}
