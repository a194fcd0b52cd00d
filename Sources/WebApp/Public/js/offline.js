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
//
// A page never opened on this device is answered offline with the kept home page (sw.js): that page then says so
// (its <meta name="trove-page"> names its own path), naming the city of a card never opened when this device knows
// it (My cities, kept by City Roulette), rather than showing Trove's home page as if it had been asked for.

const FALLBACK =
  'Offline: Trove cannot reach its server. Pages you opened before still open from this device; anything new needs the connection.';

const main = document.getElementById('main');
let note = null;
let retry = null;

const own = document.querySelector('meta[name="trove-page"]')?.content;
const stranded = own !== undefined && own !== location.pathname; // another page's, answered with this one offline

/** What a page not kept on this device is, in words: "Prato’s card" when the device knows the city, else its address. */
async function missing() {
  const city = location.pathname.match(/^\/cities\/(\d+)$/)?.[1];
  if (!city) return `The page ${location.pathname}`;
  const { kept } = await import('./sync.js');
  const mine = await kept('/api/v1/cities/collection').catch(() => null);
  const name = mine?.cities?.find((c) => String(c.geonameid) === city)?.name;
  return name ? `${name}’s city card` : 'This city’s card';
}

function show(offline) {
  if (!main || document.getElementById('offline-note')) return;
  if (offline && !note) {
    note = document.createElement('p');
    note.id = 'shell-offline';
    note.className = 'note shell-offline';
    note.setAttribute('role', 'status');
    note.textContent = document.querySelector('meta[name="trove-offline-note"]')?.content || FALLBACK;
    main.prepend(note);
    if (stranded) {
      note.textContent = 'Offline: this page is not kept on this device, so it cannot open until Trove can reach its server.';
      missing().then(
        (what) => {
          note.textContent = `Offline: ${what} is not kept on this device, so it cannot open until Trove can reach its server. Here is Trove’s home page meanwhile.`;
        },
        () => {},
      );
    }
  }
  if (note) note.hidden = !offline;
}

/** At most one reload in 30 s for this address: never a loop where the page fails while /health answers. */
function reloadOnce() {
  try {
    const key = `trove.offline.reloaded:${location.pathname}`;
    if (Date.now() - Number(sessionStorage.getItem(key) || 0) < 30000) return false;
    sessionStorage.setItem(key, String(Date.now()));
  } catch {
    /* no storage: reload */
  }
  return true;
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
  if (up && stranded && reloadOnce()) return location.reload(); // back online: the page that was asked for
  show(!up);
  if (!up) retry = setTimeout(check, 15000);
}

show(true);
addEventListener('online', check);
addEventListener('offline', () => show(true));
retry = setTimeout(check, 15000);
