// Trove's offline notice. shell.js registers the service worker, asks it to keep the page it is on and every
// versioned file that page loaded, once the page has loaded so every imported module is among them (a first visit
// comes before the worker controls the page, so nothing went through it yet), and imports this module only when the
// server cannot be reached: a page the worker answered whose HEAD /health fails, or a browser that says it is
// offline. (shell.js is kept small: it is part of every page's weight, this module is not, being loaded only
// offline; the worker keeps it from its install on.)
//
// The notice says what cannot work without the server, in the words of the page it is on (NOTES, by path). Pages
// that say it themselves (an #offline-note of their own: Oblique Strategies, Choose Your Destiny) get no second one.
// It goes when the server answers again (checked on the browser's `online` event and every 15 seconds).

const NOTES = [
  [
    /^\/$/,
    'Offline: Trove cannot reach its server. The apps you opened before still open from this device; signing in and anything new need the connection.',
  ],
  [
    /^\/cities$/,
    'Offline: My cities opens from this device; stars, removals and Save wait here until the connection is back. Around Me, Surprise Me, search and the weather need the connection.',
  ],
  [/^\/cities\/countries\//, 'Offline: this country\u2019s page was kept from your last visit. Opening its cities needs the connection.'],
  [
    /^\/cities\//,
    'Offline: this city\u2019s card was kept from your last visit. Its weather and local details need the connection to be current.',
  ],
  [
    /^\/yoga$/,
    'Offline: YogiYogini works from this device (roster, check-in at a saved or typed venue, the class, sessions, statistics) and sends your changes when the connection is back. Studios near you and the weather need the connection.',
  ],
  [/^\/poetry\/p\//, 'Offline: this poem was kept from your last visit; other poems need the connection.'],
  [
    /^\/poetry$/,
    'Offline: your moves are kept on this device and saved when the connection is back. New poems, word sets, publishing and the word helpers need the connection.',
  ],
  [/^\/stories\/[^/]+\/map$/, 'Offline: this map was kept from your last visit; a story you have not downloaded needs the connection.'],
  [/^\/account$/, 'Offline: your profile, exporting or deleting your data and signing out need the connection.'],
  [/^\/login$/, 'Offline: signing in needs the connection to Trove\u2019s server.'],
  [/^\/signup$/, 'Offline: creating an account needs the connection to Trove\u2019s server.'],
];
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
    note.textContent = (NOTES.find(([path]) => path.test(location.pathname)) || [null, FALLBACK])[1];
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
