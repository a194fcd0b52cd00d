// YogiYogini, Class tab: the check-in panels (near you, saved, typed, or "repeat last time"), loaded by
// class.js when one is opened; the running class stays in class.js.
import { toast } from '../js/api.js';
import { $, txt, show, err, make, span, checkRow, listen, click, say, busy } from './dom.js';
import { call, loadStudents } from './store.js';
import { formatDistance, matches, debounce, proposeRegulars, plural } from './logic.js';
import { checkIn, mode, open, showIdle } from './class.js';
import { openLayer } from '../js/layers.js';

const PICK = 'Pick one of your venues or type one.';
// Without the server, check-in still works at a venue of hers or one typed (the class is then held on this device).
const OFFLINE =
  'Places near you cannot be searched without Trove’s server, but you can check in offline: pick one of your venues or type one.';
const unreachable = (error) => !error.status;
let position = null; // { lat, lon } once the browser told us
let saved = []; // saved venues
let lastSession = null; // the session "Repeat last time" repeats
let savedLoaded = Promise.resolve(); // her venues, asked for as the panel opens
let searchSeq = 0;
let visits = 0; // times the panel was opened, so an answer for an earlier opening is left out
const enc = encodeURIComponent;
const here = () => `lat=${position.lat.toFixed(5)}&lon=${position.lon.toFixed(5)}`;

/** The place at the top of the panel (issue 17): a line saying what is being looked for, replaced in place by the
 * nearest of her venues when `venue` is given. It keeps its height (yoga.css), so nothing below it moves. */
function slot(text, venue = null, distance = null) {
  txt('locate-status', venue ? '' : text);
  if (venue) {
    txt('nearest-name', venue.name);
    txt('nearest-distance', Number.isFinite(distance) ? `(${formatDistance(distance)} away)` : '');
    $('nearest-checkin').dataset.id = venue.id;
  }
  show('nearest', venue);
  $('nearest-slot').classList.toggle('yg-found', !!venue);
}

/** A typed venue takes the device's position, when known, for its temperature. */
function fillHere() {
  if (!position) return false;
  $('typed-lat').value = position.lat.toFixed(5);
  $('typed-lon').value = position.lon.toFixed(5);
  txt('typed-here-state', 'Filled in from where you are now.');
  return true;
}

function useMyLocation() {
  if (fillHere()) return;
  txt('typed-here-state', 'Finding where you are…');
  navigator.geolocation.getCurrentPosition(
    (where) => {
      position = { lat: where.coords.latitude, lon: where.coords.longitude };
      fillHere();
    },
    (error) => {
      txt('typed-here-state', `${error.code === 1 ? 'Location is off' : 'Your location is unknown'}: type the position, or leave it out.`);
    },
    { timeout: 15000, maximumAge: 60000 },
  );
}
const typedEmpty = () => !$('typed-lat').value.trim() && !$('typed-lon').value.trim();

// The name she searches for is the name of the venue she would type: it follows the search into "Type a venue"
// (open when she has no venues) while that name is empty or still the search's, so a new venue is not typed twice.
let searchedName = '';

/** While a check-in panel is open, Back closes it as its Cancel does (../js/layers.js). */
let layer = null;
function panelOpened() {
  const isOpen = () => open('checkin-panel') || open('repeat-panel');
  if (layer || !isOpen()) return;
  layer = openLayer({ close: () => showIdle(), isOpen });
  const watch = new MutationObserver(() => {
    if (isOpen()) return;
    watch.disconnect();
    layer.closed(); // checked in, cancelled, or closed by Back
    layer = null;
  });
  for (const id of ['checkin-panel', 'repeat-panel']) watch.observe($(id), { attributeFilter: ['hidden'] });
}

export function openCheckin() {
  mode('checkin-panel');
  panelOpened();
  $('venue-q').value = '';
  if ($('typed-name').value.trim() === searchedName) $('typed-name').value = '';
  slot('Finding where you are…');
  show('nearby', false);
  err('typed-error');
  $('checkin-heading').focus();
  savedLoaded = loadSaved();
  const visit = ++visits;
  navigator.geolocation.getCurrentPosition(
    (where) => {
      position = { lat: where.coords.latitude, lon: where.coords.longitude };
      if (!open('checkin-panel')) return;
      if ($('typed').open && typedEmpty()) fillHere();
      lookAround(visit);
    },
    async (error) => {
      position = null;
      if (!open('checkin-panel')) return;
      slot(`${error.code === 1 ? 'Location is off' : 'Your location is unknown'}, so places near you cannot be found. ${PICK}`);
      await savedLoaded;
      if (!saved.length && open('checkin-panel')) $('typed').open = true;
    },
    { timeout: 15000, maximumAge: 60000 },
  );
}

/** Once her position is known: the nearest of her venues takes the place at the top as soon as it is found; without
 * one, that place says what the search near her found. */
async function lookAround(visit) {
  slot('Looking for venues near you…');
  const nearest = suggestNearest(visit);
  const found = await searchNearby(true);
  if (!(await nearest) && visit === visits && open('checkin-panel')) slot(found ?? PICK); // null: typing overtook it
}

/** Places near her (named like the search field's words, if any) into "Near you", below her own venues, and shown
 * only once those are in, so that list never pushes hers. The first search, as the panel opens, tells the place at
 * the top what it found (its answer, or null when a later search overtook it); later ones, made by typing, say it
 * in "Near you". */
async function searchNearby(first = false) {
  const q = $('venue-q').value.trim();
  const seq = ++searchSeq;
  if (!first) {
    txt('nearby-state', q ? `Searching for “${q}” near you…` : 'Looking for yoga places near you…');
    show('nearby');
  }
  try {
    const [body] = await Promise.all([call('GET', `/venues/search?${here()}${q ? `&q=${enc(q)}` : ''}`), savedLoaded]);
    if (seq !== searchSeq || !open('checkin-panel')) return null;
    renderNearby(body);
    const none = `No ${q ? `place called “${q}”` : 'yoga places'} found near you.`;
    txt('nearby-state', body.venues.length ? '' : none);
    show('nearby', body.venues.length || !first);
    if (!body.venues.length) return `${none} ${PICK}`;
    return saved.length
      ? 'None of your venues is near here. Pick one of them, a place near you (below), or type one.'
      : 'Pick a place near you (below), or type a venue.';
  } catch (error) {
    if (seq !== searchSeq) return null;
    if (unreachable(error)) {
      // Said once, at the top (and by "Near you" for a search typed later), with what works without the server.
      $('nearby-list').replaceChildren();
      txt('nearby-state', OFFLINE);
      show('nearby', !first);
      await savedLoaded;
      if (!saved.length && open('checkin-panel')) $('typed').open = true;
      return OFFLINE;
    }
    const why = error.status === 503 ? 'Places near you cannot be searched right now.' : error.message;
    $('nearby-list').replaceChildren();
    txt('nearby-state', why);
    show('nearby', !first);
    await savedLoaded;
    if (first && !saved.length && open('checkin-panel')) $('typed').open = true;
    return error.status === 503 ? `${why} ${PICK}` : why;
  }
}

function renderNearby({ provider, venues }) {
  $('nearby-list').replaceChildren(
    ...venues.map((v) =>
      make(
        'li',
        {},
        make(
          'button',
          {
            className: 'yg-item',
            onclick: (e) =>
              checkInFrom(
                v.saved_venue_id
                  ? { venue_id: v.saved_venue_id }
                  : {
                      venue: {
                        name: v.name,
                        address: v.address || '',
                        latitude: v.latitude,
                        longitude: v.longitude,
                        source: v.source,
                        external_id: v.external_id,
                      },
                    },
                e.currentTarget,
              ),
          },
          span('yg-item-title', v.name),
          span('yg-item-meta', [v.address, formatDistance(v.distance_m), v.saved_venue_id && 'saved'].filter(Boolean).join(' · ')),
        ),
      ),
    ),
  );
  $('nearby-credit').replaceChildren(
    provider === 'foursquare'
      ? 'Powered by Foursquare'
      : make('a', { href: 'https://www.openstreetmap.org/copyright', rel: 'noopener', target: '_blank' }, '© OpenStreetMap contributors'),
  );
}

/** The nearest of her venues (within 2 km) into the place at the top; the venue, or null when there is none. */
async function suggestNearest(visit) {
  try {
    const { venue, distance_m: distance } = await call('GET', `/venues/nearest?${here()}`);
    if (!venue || visit !== visits || !open('checkin-panel')) return null;
    slot('', venue, distance);
    return venue;
  } catch {
    return null; /* a suggestion only */
  }
}

async function loadSaved() {
  let offline = false;
  try {
    saved = (await call('GET', '/venues')).venues;
  } catch (error) {
    // Never listed on this device and the server away: a typed venue still checks in (held here until it ends).
    offline = unreachable(error);
    if (!offline) toast(error.message);
  }
  renderSaved();
  if (offline && !saved.length && open('checkin-panel')) {
    txt('saved-empty', 'Your venues are not on this device yet: type the venue above, checking in works offline.');
    $('typed').open = true;
  }
}

function renderSaved() {
  const shown = saved.filter((v) => matches(`${v.name} ${v.address}`, $('venue-q').value));
  $('saved-list').replaceChildren(
    ...shown.map((v) =>
      make(
        'li',
        { className: 'yg-row' },
        make(
          'button',
          { className: 'yg-item', onclick: (e) => checkInFrom({ venue_id: v.id }, e.currentTarget) },
          span('yg-item-title', v.name),
          span('yg-item-meta', [v.address, v.session_count && plural(v.session_count, 'session')].filter(Boolean).join(' · ')),
        ),
        make(
          'button',
          {
            className: 'button quiet yg-star',
            'aria-pressed': String(v.favourite),
            'aria-label': `Favourite: ${v.name}`,
            onclick: (e) => toggleFavourite(v, e.currentTarget),
          },
          v.favourite ? '★' : '☆',
        ),
      ),
    ),
  );
  show('saved-empty', !shown.length);
  show('saved-manage', saved.length); // nothing to rename or delete yet
  txt('saved-empty', saved.length ? 'None of your venues matches.' : 'No saved venues yet. A venue you check in at is kept here.');
}

async function toggleFavourite(venue, button) {
  await busy(button, async () => {
    try {
      const { name, address, favourite } = venue; // as known here: a rename made elsewhere meanwhile is kept
      await call('PUT', `/venues/${enc(venue.id)}`, { name, address, favourite: !favourite, base: { name, address, favourite } });
      say(venue.favourite ? `${venue.name} is no longer a favourite` : `${venue.name} is a favourite`);
      saved = (await call('GET', '/venues')).venues;
    } catch (error) {
      toast(error.message);
    }
  });
  renderSaved();
  const again = $('saved-list').querySelector(`[aria-label="${CSS.escape(`Favourite: ${venue.name}`)}"]`);
  if (again) again.focus();
}

const onVenueQuery = debounce(searchNearby, 400);

function typedVenue() {
  const value = (id) => $(id).value.trim();
  if (!value('typed-name')) throw new Error('Give the venue a name.');
  const venue = { name: value('typed-name'), address: value('typed-address'), source: 'typed' };
  const [lat, lon] = ['typed-lat', 'typed-lon'].map((id) => value(id).replace(',', '.'));
  if (lat || lon) {
    venue.latitude = Number(lat);
    venue.longitude = Number(lon);
    if (!lat || !lon || !(Math.abs(venue.latitude) <= 90) || !(Math.abs(venue.longitude) <= 180)) {
      throw new Error('A position needs a latitude (-90 to 90) and a longitude (-180 to 180), or neither.');
    }
  }
  return venue;
}

const checkInFrom = (payload, button) => busy(button, () => checkIn(payload).catch((error) => toast(error.message)));

export async function openRepeat(last) {
  lastSession = last;
  const { venue } = lastSession;
  mode('repeat-panel');
  panelOpened();
  txt('repeat-name', venue.name);
  txt('repeat-address', venue.address || '');
  err('repeat-error');
  show('repeat-empty', false);
  $('repeat-list').replaceChildren(make('li', { className: 'yg-muted', text: 'Loading the regulars…' }));
  $('repeat-heading').focus();
  try {
    const [body, students] = await Promise.all([call('GET', `/venues/${enc(venue.id)}/regulars`), loadStudents()]);
    const people = proposeRegulars(
      body.students,
      lastSession.attendees,
      students.filter((s) => s.active),
    );
    $('repeat-list').replaceChildren(
      ...people.map((p) => checkRow(p.id, p.checked, p.name, p.times ? span('yg-muted', ` · ${plural(p.times, 'time')}`) : null)),
    );
    show('repeat-empty', !people.length);
  } catch (error) {
    $('repeat-list').replaceChildren();
    err('repeat-error', error.status === 404 ? new Error('That venue is no longer among your venues.') : error);
  }
}

click('repeat-go', (e) => {
  const attendees = [...$('repeat-list').querySelectorAll('input:checked')].map((i) => i.value);
  err('repeat-error');
  busy(e.currentTarget, () => checkIn({ venue_id: lastSession.venue.id, attendees }).catch((error) => err('repeat-error', error)));
});
click('nearest-checkin', (e) => checkInFrom({ venue_id: e.currentTarget.dataset.id }, e.currentTarget));
listen('venue-q', 'input', () => {
  const name = $('typed-name');
  if (!name.value.trim() || name.value.trim() === searchedName) name.value = searchedName = $('venue-q').value.trim();
  renderSaved();
  if (position) onVenueQuery();
});
listen('typed-form', 'submit', (event) => {
  event.preventDefault();
  err('typed-error');
  busy($('typed-checkin'), () =>
    Promise.resolve()
      .then(() => checkIn({ venue: typedVenue() }))
      .catch((error) => err('typed-error', error)),
  );
});
click('typed-here', useMyLocation);
listen('typed', 'toggle', () => {
  if ($('typed').open && typedEmpty()) fillHere();
});
