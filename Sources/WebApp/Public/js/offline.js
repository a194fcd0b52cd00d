// Trove's offline notice. shell.js registers the service worker, asks it to keep the page it is on and every
// versioned file that page loaded, once the page has loaded so every imported module is among them (a first visit
// comes before the worker controls the page, so nothing went through it yet), and imports this module only when the
// server cannot be reached: a page the worker answered whose HEAD /health fails, or a browser that says it is
// offline. (shell.js is kept small: it is part of every page's weight, this module is not, being loaded only
// offline; the worker keeps it from its install on.)
//
// The notice says what cannot work without the server, in the words of the page it is on: its template's
// <meta name="trove-offline-note" content="…">, else FALLBACK. Pages that say it themselves (an #offline-note of their
// own) get no second one.
// It goes when the server answers again (checked on the browser's `online` event and every 15 seconds).

const FALLBACK =
  'Offline: Trove cannot reach its server. Pages you opened before still open from this device; anything new needs the connection.';

const main = document.getElementById('main');
let note = null;
let retry = null;

function show(offline) {
  if (!main || document.getElementById('offline-note')) return;
  if (offline && !note) {
    note = document.createElement('p');
    note.id = 'shell-offline';
    note.className = 'note shell-offline';
    note.setAttribute('role', 'status');
    note.textContent = document.querySelector('meta[name="trove-offline-note"]')?.content || FALLBACK;
    main.prepend(note);
  }
  if (note) note.hidden = !offline;
}

async function check() {
  clearTimeout(retry);
  let up = navigator.onLine;
  if (up) {
    try {
      up = (await fetch('/health', { method: 'HEAD', cache: 'no-store' })).ok;
    } catch {
      up = false;
    }
  }
  show(!up);
  if (!up) retry = setTimeout(check, 15000);
}

show(true);
addEventListener('online', check);
addEventListener('offline', () => show(true));
retry = setTimeout(check, 15000);
