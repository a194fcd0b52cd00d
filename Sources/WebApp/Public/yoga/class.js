// YogiYogini, Class tab: check in (near you, saved, typed, or "repeat last time"), the running class
// (timer, temperature, attendees, notes) and ending it (a dialog, or a long press that saves at once).
// The class lives on the server, so a reload, a restart or another device shows the same class.
import { toast } from '../js/api.js';
import { $, txt, show, err, make, span, listen, click, say, busy, formatTime, confirmDialog } from './dom.js';
import { call, state, emit, on, temperature, loadStudents, loadSessions, studentsChanged } from './store.js';
import {
  formatClock, elapsedAt, formatDistance, formatDuration, matches, debounce, proposeRegulars,
  pickerStudents, createLongPress, plural,
} from './logic.js';

const PICK = 'Pick one of your venues or type one.';
const PANELS = ['class-loading', 'class-idle', 'checkin-panel', 'repeat-panel', 'class-live'];
let klass = null; // the running class, or null
let receivedAt = 0;
let timer = 0;
const weather = { for: null, loading: false };
let position = null; // { lat, lon } once the browser told us
let saved = []; // saved venues
let regulars = []; // the running class's venue regulars, for the picker
let lastSession = null;
let checking = false;
let ending = false;
let searchSeq = 0;
let loaded = Promise.resolve();

const mode = (name) => PANELS.forEach((id) => show(id, id === name));
const open = (id) => !$(id).hidden;
const enc = encodeURIComponent;
const here = () => `lat=${position.lat.toFixed(5)}&lon=${position.lon.toFixed(5)}`;

async function refresh() {
  try {
    setClass((await call('GET', '/class')).class);
  } catch (error) {
    mode('class-loading');
    txt('class-loading', `Could not load the class: ${error.message}`);
  }
}

function setClass(next) {
  const previous = klass;
  klass = next;
  receivedAt = Date.now();
  if (!next) {
    clearInterval(timer);
    timer = 0;
    notesSave.cancel();
    if (previous || !(open('checkin-panel') || open('repeat-panel'))) showIdle();
    return;
  }
  mode('class-live');
  txt('live-venue', next.venue.name);
  txt('live-address', next.venue.address || '');
  txt('live-start', formatTime(next.started_at));
  renderTimer();
  renderAttendees();
  if (document.activeElement !== $('class-notes') && !notesSave.pending()) $('class-notes').value = next.notes || '';
  if (!timer) timer = setInterval(renderTimer, 250);
  if (weather.for !== next.started_at) {
    weather.for = next.started_at;
    if (next.temperature_c == null) fetchWeather();
  }
  renderTemperature();
  if (!previous || previous.venue.id !== next.venue.id) loadRegulars();
}

function renderTimer() {
  if (klass) txt('live-timer', formatClock(elapsedAt(klass, receivedAt, Date.now())));
}

function renderTemperature() {
  if (!klass) return;
  const shown = temperature(klass.temperature_c);
  txt('live-temp', shown || (weather.loading ? 'checking…' : 'temperature unavailable'));
  $('live-temp').classList.toggle('yg-muted', !shown);
}

async function fetchWeather() {
  const key = klass.started_at;
  if (klass.venue.latitude == null) return; // 422 venue_without_coordinates: nothing to ask
  weather.loading = true;
  renderTemperature();
  try {
    const body = await call('GET', '/class/weather');
    if (klass && klass.started_at === key) klass.temperature_c = body.temperature_c;
  } catch (error) {
    if (error.code === 'no_class') refresh();
  }
  weather.loading = false;
  renderTemperature();
}

async function loadRegulars() {
  regulars = [];
  try {
    if (klass.venue.id) regulars = (await call('GET', `/venues/${enc(klass.venue.id)}/regulars`)).students;
  } catch { /* the picker is then simply A to Z */ }
}

async function patch(body, quiet) {
  try {
    setClass((await call('PATCH', '/class', body)).class);
    return true;
  } catch (error) {
    if (error.code === 'no_class') {
      toast('This class has already ended.');
      await refresh();
    } else if (!quiet) toast(error.message);
    return false;
  }
}

function renderAttendees() {
  $('attendee-list').replaceChildren(...klass.attendees.map((a) => make('li', { className: 'yg-row' },
    span('yg-row-main', a.name),
    make('button', {
      className: 'button quiet yg-x', 'aria-label': `Remove ${a.name}`,
      onclick: (e) => removeAttendee(a, e.currentTarget),
    }, '×'))));
  txt('attendee-count', String(klass.attendees.length));
  show('attendee-empty', !klass.attendees.length);
}

/** After a row goes, the focus goes to the row now in its place (or the + button). */
function refocus(listID, index, fallback) {
  const items = $(listID).querySelectorAll('button');
  (items[Math.min(index, items.length - 1)] || $(fallback)).focus();
}

async function removeAttendee(attendee, button) {
  const index = [...$('attendee-list').children].indexOf(button.closest('li'));
  if (await busy(button, () => patch({ remove: [attendee.id] }))) say(`${attendee.name} removed`);
  refocus('attendee-list', index, 'add-attendees');
}

async function openPicker() {
  $('picker-q').value = '';
  err('picker-error');
  $('picker-dialog').showModal();
  $('picker-list').replaceChildren(make('li', { className: 'yg-muted', text: 'Loading…' }));
  try {
    await loadStudents();
    renderPicker();
  } catch (error) {
    err('picker-error', error);
  }
}

function renderPicker() {
  if (!klass || !state.students) return;
  const times = new Map(regulars.map((r) => [r.id, r.times]));
  const people = pickerStudents(state.students, klass.attendees.map((a) => a.id), regulars)
    .filter((s) => matches(s.name, $('picker-q').value));
  $('picker-list').replaceChildren(...people.map((s) => make('li', {},
    make('button', { className: 'yg-item', onclick: (e) => addAttendee(s, e.currentTarget) },
      span('yg-item-title', s.name),
      times.get(s.id) ? span('yg-item-meta', `Regular here · ${plural(times.get(s.id), 'time')}`) : null))));
  show('picker-empty', !people.length);
}

async function addAttendee(student, button) {
  const index = [...$('picker-list').children].indexOf(button.closest('li'));
  if (!(await busy(button, () => patch({ add: [student.id] })))) return;
  say(`${student.name} added`);
  renderPicker();
  refocus('picker-list', index, 'picker-q');
}

const notesSave = debounce(async () => {
  if (!klass) return;
  txt('notes-state', 'Saving…');
  txt('notes-state', (await patch({ notes: $('class-notes').value }, true)) ? 'Saved' : 'Not saved: check your connection');
}, 800);

/** A page going away still sends the notes typed in its last moment. */
function sendNotesNow() {
  if (!notesSave.pending()) return;
  notesSave.cancel();
  fetch('/api/v1/yoga/class', {
    method: 'PATCH', keepalive: true, headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ notes: $('class-notes').value }),
  }).catch(() => {});
}

async function endClass(action) {
  if (ending || !klass) return;
  ending = true;
  err('end-error');
  const dialog = $('end-dialog');
  try {
    if (notesSave.pending()) await notesSave.flush();
    const body = await call('POST', '/class/end', { action });
    if (dialog.open) dialog.close();
    const s = body.session;
    toast(s ? `Class saved: ${plural(s.attendance, 'student')}, ${formatDuration(s.duration_seconds)}` : 'Class discarded');
    setClass(null);
    emit('sessions');
    studentsChanged();
    $('class-heading').focus();
  } catch (error) {
    if (error.code === 'no_class') {
      if (dialog.open) dialog.close();
      toast('This class has already ended.');
      await refresh();
    } else if (dialog.open) err('end-error', error);
    else toast(error.message);
  } finally {
    ending = false;
  }
}

function openEndDialog() {
  if (!klass) return;
  const seconds = elapsedAt(klass, receivedAt, Date.now());
  txt('end-summary', `${klass.venue.name} · ${plural(klass.attendees.length, 'student')} · ${formatDuration(seconds)}. Save it to your sessions, or discard it?`);
  err('end-error');
  $('end-dialog').showModal();
  $('end-save').focus();
}

async function discard() {
  $('end-dialog').close();
  if (await confirmDialog({ title: 'Discard this class?', text: 'Its attendance and notes will be lost.', ok: 'Discard' })) endClass('discard');
  else $('end-class').focus();
}

/** "End class": a short press (or Enter, Space) asks; holding it 600 ms saves at once. */
function wireLongPress() {
  const button = $('end-class');
  const press = createLongPress(600);
  let frame = 0;
  let fallback = 0;
  let swallowClick = false;
  const reset = () => {
    cancelAnimationFrame(frame);
    clearTimeout(fallback);
    button.classList.remove('is-pressing');
    button.style.setProperty('--progress', '0');
  };
  const fire = () => {
    reset();
    swallowClick = true; // the click that follows the release
    setTimeout(() => { swallowClick = false; }, 800);
    if (navigator.vibrate) navigator.vibrate(40);
    endClass('save');
  };
  const step = () => {
    const now = performance.now();
    button.style.setProperty('--progress', String(press.progress(now)));
    if (press.due(now)) fire();
    else if (press.pressing) frame = requestAnimationFrame(step);
  };
  button.addEventListener('pointerdown', (event) => {
    if (event.button !== 0 || ending) return;
    swallowClick = false;
    press.down(performance.now());
    button.setPointerCapture(event.pointerId);
    button.classList.add('is-pressing');
    frame = requestAnimationFrame(step);
    fallback = setTimeout(() => { if (press.due(performance.now())) fire(); }, 620); // frames may be throttled
  });
  button.addEventListener('pointerup', () => {
    if (press.pressing && press.up(performance.now()) === 'long' && button.classList.contains('is-pressing')) fire();
    reset();
  });
  const cancel = () => { if (press.pressing) { press.cancel(); reset(); } };
  button.addEventListener('pointercancel', cancel);
  button.addEventListener('lostpointercapture', () => setTimeout(cancel));
  button.addEventListener('contextmenu', (event) => event.preventDefault());
  button.addEventListener('click', () => {
    if (swallowClick) swallowClick = false;
    else openEndDialog();
  });
}

function showIdle() {
  mode('class-idle');
  show('repeat', false);
  loadSessions().then((sessions) => {
    // Repeat the last session if its venue is still saved.
    lastSession = sessions[0] && sessions[0].venue.id ? sessions[0] : null;
    show('repeat', lastSession);
    if (lastSession) txt('repeat-venue', lastSession.venue.name);
  }).catch(() => {});
}

function status(text) {
  txt('locate-status', text);
}

function openCheckin() {
  mode('checkin-panel');
  $('venue-q').value = '';
  show('nearest', false);
  show('nearby', false);
  err('typed-error');
  $('checkin-heading').focus();
  loadSaved();
  status('Finding where you are…');
  navigator.geolocation.getCurrentPosition((where) => {
    position = { lat: where.coords.latitude, lon: where.coords.longitude };
    if (!open('checkin-panel')) return;
    searchNearby();
    suggestNearest();
  }, (error) => {
    position = null;
    if (!open('checkin-panel')) return;
    status(`${error.code === 1 ? 'Location is off' : 'Your location is unknown'}, so places near you cannot be found. ${PICK}`);
    if (!saved.length) $('typed').open = true;
  }, { timeout: 15000, maximumAge: 300000 });
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
  $('nearby-list').replaceChildren(...venues.map((v) => make('li', {},
    make('button', {
      className: 'yg-item',
      onclick: (e) => checkInFrom(v.saved_venue_id ? { venue_id: v.saved_venue_id } : {
        venue: { name: v.name, address: v.address || '', latitude: v.latitude, longitude: v.longitude, source: v.source, external_id: v.external_id },
      }, e.currentTarget),
    },
    span('yg-item-title', v.name),
    span('yg-item-meta', [v.address, formatDistance(v.distance_m), v.saved_venue_id && 'saved'].filter(Boolean).join(' · '))))));
  show('nearby', venues.length);
  $('nearby-credit').replaceChildren(provider === 'foursquare' ? 'Powered by Foursquare'
    : make('a', { href: 'https://www.openstreetmap.org/copyright', rel: 'noopener', target: '_blank' }, '© OpenStreetMap contributors'));
}

async function suggestNearest() {
  try {
    const { venue, distance_m: distance } = await call('GET', `/venues/nearest?${here()}`);
    if (!venue || !open('checkin-panel')) return;
    txt('nearest-name', venue.name);
    txt('nearest-distance', Number.isFinite(distance) ? `(${formatDistance(distance)} away)` : '');
    $('nearest-checkin').dataset.id = venue.id;
    show('nearest');
  } catch { /* a suggestion only */ }
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
  $('saved-list').replaceChildren(...shown.map((v) => make('li', { className: 'yg-row' },
    make('button', { className: 'yg-item', onclick: (e) => checkInFrom({ venue_id: v.id }, e.currentTarget) },
      span('yg-item-title', v.name),
      span('yg-item-meta', [v.address, v.session_count && plural(v.session_count, 'session')].filter(Boolean).join(' · '))),
    make('button', {
      className: 'button quiet yg-star', 'aria-pressed': String(v.favourite), 'aria-label': `Favourite: ${v.name}`,
      onclick: (e) => toggleFavourite(v, e.currentTarget),
    }, v.favourite ? '★' : '☆'))));
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

/** Checks in; an error is thrown to the caller, except "a class is already running", which shows it. */
async function checkIn(payload) {
  if (checking) return;
  checking = true;
  try {
    const body = await call('POST', '/class', payload);
    setClass(body.class);
    $('typed-form').reset();
    $('typed').open = false;
    say(`Checked in at ${body.class.venue.name}`);
    $('class-heading').focus();
  } catch (error) {
    if (error.code !== 'class_in_session') throw error;
    toast('A class is already running.');
    await refresh();
  } finally {
    checking = false;
  }
}

const checkInFrom = (payload, button) => busy(button, () => checkIn(payload).catch((error) => toast(error.message)));

async function openRepeat() {
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
    const people = proposeRegulars(body.students, lastSession.attendees, students.filter((s) => s.active));
    $('repeat-list').replaceChildren(...people.map((p) => make('li', {},
      make('label', { className: 'yg-check' },
        make('input', { type: 'checkbox', value: p.id, checked: p.checked }),
        make('span', {}, p.name, p.times ? span('yg-muted', ` · ${plural(p.times, 'time')}`) : null)))));
    show('repeat-empty', !people.length);
  } catch (error) {
    $('repeat-list').replaceChildren();
    err('repeat-error', error.status === 404 ? new Error('That venue is no longer among your venues.') : error);
  }
}

export function init() {
  const back = () => { showIdle(); $('checkin').focus(); };
  click('checkin', openCheckin);
  click('repeat', openRepeat);
  click('checkin-cancel', back);
  click('repeat-cancel', back);
  click('repeat-go', (e) => {
    const attendees = [...$('repeat-list').querySelectorAll('input:checked')].map((i) => i.value);
    err('repeat-error');
    busy(e.currentTarget, () => checkIn({ venue_id: lastSession.venue.id, attendees }).catch((error) => err('repeat-error', error)));
  });
  click('nearest-checkin', (e) => checkInFrom({ venue_id: e.currentTarget.dataset.id }, e.currentTarget));
  listen('venue-q', 'input', () => { renderSaved(); if (position) onVenueQuery(); });
  listen('typed-form', 'submit', (event) => {
    event.preventDefault();
    err('typed-error');
    busy($('typed-checkin'), () => Promise.resolve().then(() => checkIn({ venue: typedVenue() })).catch((error) => err('typed-error', error)));
  });

  click('add-attendees', openPicker);
  listen('picker-q', 'input', renderPicker);
  click('picker-done', () => $('picker-dialog').close());
  listen('picker-dialog', 'close', () => $('add-attendees').focus());

  listen('class-notes', 'input', () => {
    txt('notes-state', 'Not saved yet');
    notesSave();
  });
  listen('class-notes', 'blur', () => notesSave.flush());
  window.addEventListener('pagehide', sendNotesNow);

  wireLongPress();
  click('end-save', () => endClass('save'));
  click('end-discard', discard);
  click('end-keep', () => $('end-dialog').close());

  on('settings', renderTemperature);
  on('sessions', () => { if (!klass && open('class-idle')) showIdle(); });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && !ending && !checking) refresh();
  });
  loaded = refresh();
}

export const ready = () => loaded;
export const showTab = () => renderTimer();
