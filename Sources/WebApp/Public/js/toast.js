// Trove toasts: a polite live region; while modal dialogs are open it lives in the last one opened (the rest of
// the page is inert under its backdrop: unclickable, unread).

let region;
let styled;
const modals = [];
const pending = new Set();
const modal = (d) => {
  try {
    return d.matches(':modal');
  } catch {
    return d.open;
  }
};

function place() {
  for (let i = modals.length - 1; i >= 0; i -= 1) if (!modals[i].open || !modals[i].isConnected) modals.splice(i, 1);
  const home = modals[modals.length - 1] || document.body;
  if (region.parentNode !== home || region.nextSibling) home.append(region);
  return region;
}

function ensureRegion() {
  if (!region) {
    region = document.createElement('div');
    region.className = 'toast-region';
    region.setAttribute('role', 'status');
    region.setAttribute('aria-live', 'polite');
    for (const d of document.querySelectorAll('dialog[open]')) if (modal(d)) modals.push(d);
    new MutationObserver((records) => {
      for (const { target: d } of records) {
        if (d.tagName !== 'DIALOG') continue;
        if (modals.includes(d)) modals.splice(modals.indexOf(d), 1);
        if (d.open && modal(d)) modals.push(d);
      }
      place();
    }).observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: ['open'] });
  }
  return place();
}

function dismiss(item) {
  if (!item.isConnected || item.classList.contains('leaving')) return;
  item.classList.add('leaving');
  setTimeout(() => item.remove(), 250);
}

/** A short message; `action` ({ label, run, keys }) adds a button. Its time stops while it has the focus. */
export function toast(message, { timeout = 4000, action, onTimeout } = {}) {
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
  // Shown (and its time started) once toast.css is in.
  styled ??= new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = new URL('../css/toast.css', import.meta.url).pathname;
    link.onload = link.onerror = resolve;
    document.head.append(link);
  });
  styled.then(() => {
    if (!item.stopped) {
      ensureRegion().append(item);
      if (timeout > 0) time(item, timeout, onTimeout);
    }
  });
  return item;
}

function time(item, timeout, onTimeout) {
  let timer = 0;
  let left = timeout;
  let started = 0;
  const run = () => {
    started = Date.now();
    timer = setTimeout(() => {
      dismiss(item);
      if (onTimeout) onTimeout();
    }, left);
  };
  item.addEventListener('focusin', () => {
    if (timer > 0) {
      clearTimeout(timer);
      timer = 0;
      left = Math.max(2000, left - (Date.now() - started));
    }
  });
  item.addEventListener('focusout', (e) => {
    if (!item.contains(e.relatedTarget) && !timer && item.isConnected) run();
  });
  item.stop = () => {
    clearTimeout(timer);
    timer = -1;
  };
  run();
}

/**
 * A small removal, already off the page: `message` with Undo (or Ctrl/⌘+Z) for 6 s. Undo calls `undo()`; else
 * `commit({ keepalive })` runs once, when the toast runs out or (keepalive) the page is hidden or left, so the
 * app sends its DELETE only then. Returns { undo, commit }.
 */
export function undoable(message, { undo, commit, timeout = 6000 }) {
  let item = null;
  const settle = (work) => {
    if (!pending.delete(entry)) return;
    if (item) {
      item.stopped = true;
      item.stop?.();
      dismiss(item);
    }
    try {
      Promise.resolve(work()).catch(() => {});
    } catch {
      /* the app reports its failures */
    }
  };
  const entry = {
    at: Date.now(),
    undo: () => settle(undo),
    commit: (keepalive = false) => settle(() => commit({ keepalive })),
  };
  pending.add(entry);
  listen();
  item = toast(message, {
    timeout: Math.max(5000, timeout),
    action: { label: 'Undo', keys: 'Control+Z Meta+Z', run: entry.undo },
    onTimeout: () => entry.commit(false),
  });
  return { undo: entry.undo, commit: () => entry.commit(false) };
}

/** Sends every removal still waiting for its Undo to run out, now. */
export function commitPending({ keepalive = false } = {}) {
  for (const entry of [...pending]) entry.commit(keepalive);
}

let listening = false;
function listen() {
  if (listening) return;
  listening = true;
  const leave = () => commitPending({ keepalive: true });
  window.addEventListener('pagehide', leave);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leave();
  });
  window.addEventListener(
    'keydown',
    (e) => {
      if (!pending.size || e.altKey || e.shiftKey || !(e.ctrlKey || e.metaKey) || (e.key !== 'z' && e.key !== 'Z')) return;
      if (e.target.closest?.('input, textarea, select, [contenteditable]:not([contenteditable="false"])')) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      [...pending].sort((a, b) => b.at - a.at)[0].undo();
    },
    true,
  );
}
