// YogiYogini, Class tab: the check-in panels (near you, saved, typed, or "repeat last time"), loaded by
// class.js when one is opened; the running class stays in class.js.
import { toast } from '../js/api.js';
import { $, txt, show, err, make, span, checkRow, listen, click, say, busy } from './dom.js';
import { call, loadStudents } from './store.js';
import { formatDistance, matches, debounce, proposeRegulars, plural } from './logic.js';
import { checkIn, mode, open } from './class.js';

const PICK = 'Pick one of your venues or type one.';
let position = null; // { lat, lon } once the browser told us
let saved = []; // saved venues
let lastSession = null; // the session "Repeat last time" repeats
let searchSeq = 0;
const enc = encodeURIComponent;
const here = () => `lat=${position.lat.toFixed(5)}&lon=${position.lon.toFixed(5)}`;

function status(text) {
  txt('locate-status', text);
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
    { timeout: 15000, maximumAge: 300000 },
  );
}
const typedEmpty = () => !$('typed-lat').value.trim() && !$('typed-lon').value.trim();

export function openCheckin() {
  mode('checkin-panel');
  $('venue-q').value = '';
  show('nearest', false);
  show('nearby', false);
  err('typed-error');
  $('checkin-heading').focus();
  loadSaved();
  status('Finding where you are…');
  navigator.geolocation.getCurrentPosition(
    (where) => {
      position = { lat: where.coords.latitude, lon: where.coords.longitude };
      if (!open('checkin-panel')) return;
      if ($('typed').open && typedEmpty()) fillHere();
      searchNearby();
      suggestNearest();
    },
    (error) => {
      position = null;
      if (!open('checkin-panel')) return;
      status(`${error.code === 1 ? 'Location is off' : 'Your location is unknown'}, so places near you cannot be found. ${PICK}`);
      if (!saved.length) $('typed').open = true;
    },
    { timeout: 15000, maximumAge: 300000 },
  );
}

async function searchNearby() {
  const q = $('venue-q').value.trim();
  const seq = ++searchSeq;
  status(q ? `Searching for “${q}” near you…` : 'Looking for yoga places near you…');
  try {
    const body = await call('GET', `/venues/search?${here()}${q ? `&q=${enc(q)}` : ''}`);
    if (seq !== searchSeq || !open('checkin-panel')) return;
    renderNearby(body);
    status(body.venues.length ? '' : `No ${q ? `place called “${q}”` : 'yoga places'} found near you. ${PICK}`);
  } catch (error) {
    if (seq !== searchSeq) return;
    show('nearby', false);
    status(error.status === 503 ? `Places near you cannot be searched right now. ${PICK}` : error.message);
    if (!saved.length) $('typed').open = true;
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
  show('nearby', venues.length);
  $('nearby-credit').replaceChildren(
    provider === 'foursquare'
      ? 'Powered by Foursquare'
      : make('a', { href: 'https://www.openstreetmap.org/copyright', rel: 'noopener', target: '_blank' }, '© OpenStreetMap contributors'),
  );
}

async function suggestNearest() {
  try {
    const { venue, distance_m: distance } = await call('GET', `/venues/nearest?${here()}`);
    if (!venue || !open('checkin-panel')) return;
    txt('nearest-name', venue.name);
    txt('nearest-distance', Number.isFinite(distance) ? `(${formatDistance(distance)} away)` : '');
    $('nearest-checkin').dataset.id = venue.id;
    show('nearest');
  } catch {
    /* a suggestion only */
  }
}

async function loadSaved() {
  try {
    saved = (await call('GET', '/venues')).venues;
  } catch (error) {
    toast(error.message);
  }
  renderSaved();
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
  txt('saved-empty', saved.length ? 'None of your venues matches.' : 'No saved venues yet. A venue you check in at is kept here.');
}

async function toggleFavourite(venue, button) {
  await busy(button, async () => {
    try {
      await call('PUT', `/venues/${enc(venue.id)}`, { name: venue.name, address: venue.address, favourite: !venue.favourite });
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
