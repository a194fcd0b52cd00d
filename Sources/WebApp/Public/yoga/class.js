// YogiYogini, Class tab: the running class (timer, temperature, attendees, notes) and ending it (a dialog, or a
// long press that saves at once); checking in (near you, saved, typed, or "repeat last time") is in checkin.js,
// loaded when its panel opens. The class lives on the server, so a reload, a restart or another device shows the
// same class (one checked in without the server is held on this device until the server answers: yoga/write.js).
import { toast } from '../js/api.js';
import { $, txt, show, err, make, span, listen, click, say, busy, formatTime, confirmDialog, setSavedText } from './dom.js';
import { call, state, emit, on, temperature, loadStudents, loadSessions, studentsChanged } from './store.js';
import { handOver } from './local.js';
import { formatClock, elapsedAt, formatDuration, debounce, createLongPress, plural, parseTemperature, temperatureValue } from './logic.js';
import { showModal } from '../js/dom.js';

const PANELS = ['class-loading', 'class-idle', 'checkin-panel', 'repeat-panel', 'class-live'];
let klass = null; // the running class, or null
let receivedAt = 0;
let timer = 0;
let holding = 0; // while a class is held on this device: asks the server to take it (giveToServer)
const HELD = $('live-held').textContent; // the template's line for a held class (another may stay: `stays`)
const weather = { for: null, loading: false, why: '', tries: 0, timer: 0 };
// A temperature typed on this device for the running class ({ for: its started_at, c }): shown over the weather's
// and sent with PATCH /class, so another device sees it; written into the session when the class is saved.
const TYPED = 'yoga.classTemp';
function typed() {
  try {
    const t = JSON.parse(localStorage.getItem(TYPED));
    return klass && t?.for === klass.started_at ? t : null;
  } catch {
    return null;
  }
}
const celsius = () => (typed() ? typed().c : (klass?.temperature_c ?? null));
let regulars = []; // the running class's venue regulars, for the picker
/** The running class and its venue's regulars, for the picker. */
export const running = () => ({ klass, regulars });
let lastSession = null;
let checking = false;
let ending = false;
let loaded = Promise.resolve();
let panels = null;
const checkinPanel = () =>
  (panels ??= import('./checkin.js').catch((error) => {
    panels = null;
    toast(error.message);
    throw error;
  }));

export const mode = (name) => PANELS.forEach((id) => show(id, id === name));
export const open = (id) => !$(id).hidden;
const enc = encodeURIComponent;

export async function refresh() {
  try {
    setClass((await call('GET', '/class')).class);
  } catch (error) {
    mode('class-loading');
    txt('class-loading', `Could not load the class: ${error.message}`);
  }
}

export function setClass(next) {
  const previous = klass;
  const now = Date.now();
  // The same class again (a change answered, a read): its timer never goes back, whoever counted (the server, or
  // this device from the start it knows, with a clock of its own).
  const ran = previous && next && previous.started_at === next.started_at ? elapsedAt(previous, receivedAt, now) : 0;
  klass = next && ran > elapsedAt(next, now, now) ? { ...next, elapsed_seconds: ran } : next;
  receivedAt = now;
  if (!next) {
    clearInterval(holding);
    clearInterval(timer);
    clearTimeout(weather.timer);
    timer = 0;
    notesSave.cancel();
    if (previous || !(open('checkin-panel') || open('repeat-panel'))) showIdle();
    return;
  }
  mode('class-live');
  txt('live-venue', next.venue.name);
  txt('live-address', next.venue.address || '');
  txt('live-start', formatTime(next.started_at));
  show('live-held', !!next.on_device);
  txt('live-held', next.stays ? 'Checked in offline: this class stays on this device until it ends.' : HELD);
  clearInterval(holding);
  holding = next.on_device && !next.stays ? setInterval(giveToServer, 15000) : 0;
  if (holding && !previous?.on_device) giveToServer();
  renderTimer();
  renderAttendees();
  if (document.activeElement !== $('class-notes') && !notesSave.pending() && notesSending === null) {
    const kept = draft();
    if (kept?.for === next.started_at && kept.notes !== (next.notes || '')) {
      setSavedText($('class-notes'), kept.notes); // typed as the page was left: saved now
      notesBase = kept.was ?? null;
      notesSave();
    } else {
      if (kept) localStorage.removeItem(NOTES);
      setSavedText($('class-notes'), (notesBase = next.notes || ''));
    }
  }
  if (!timer) timer = setInterval(renderTimer, 250);
  if (weather.for !== next.started_at) {
    weather.for = next.started_at;
    weather.tries = 0;
    weather.why = '';
    clearTimeout(weather.timer);
    show('temp-form', false);
    show('temp-edit');
    if (celsius() == null) fetchWeather();
  }
  renderTemperature();
  if (!previous || previous.venue.id !== next.venue.id) loadRegulars();
}

/** The class held on this device goes to the server once it answers, so other devices see it run. */
async function giveToServer() {
  if (!klass?.on_device || ending || !navigator.onLine) return;
  const taken = await handOver().catch(() => null);
  if (!taken || ending || !klass?.on_device) return;
  setClass(taken);
  if (taken.on_device) return; // refused there (another device's class runs): held here until it ends
  if (celsius() == null) fetchWeather(); // at the venue, by the server now
  say('Trove can be reached again: this class is now seen on your other devices.');
}

function renderTimer() {
  if (klass) txt('live-timer', formatClock(elapsedAt(klass, receivedAt, Date.now())));
}

function renderTemperature() {
  if (!klass) return;
  const shown = temperature(celsius());
  // Asking again after a failure keeps what it showed (the line above, which wraps by its length, the reason and Try
  // again, disabled) and says it asks: End class, under them, stays where a thumb is going.
  const again = weather.loading && weather.why;
  txt('live-temp', shown || (weather.loading && !again ? 'checking…' : 'temperature unavailable'));
  $('live-temp').classList.toggle('yg-muted', !shown);
  txt(
    'temp-why',
    shown ? '' : again ? `${weather.why.split('. ')[0].replace(/\.$/, '')}. Asking again now…` : weather.loading ? '' : weather.why,
  );
  show('temp-retry', !shown && (again || !weather.loading) && klass.venue.latitude != null);
  $('temp-retry').disabled = weather.loading;
  txt('temp-edit', shown ? 'Correct the temperature' : 'Type the temperature');
}

/** The weather at the venue; when it fails, the reason is shown and it is asked again (15 s, 1 min, 5 min). */
async function fetchWeather() {
  clearTimeout(weather.timer);
  const key = klass.started_at;
  if (klass.venue.latitude == null) {
    weather.why = 'This venue has no position, so the weather cannot be looked up. You can type the temperature.';
    renderTemperature();
    return;
  }
  weather.loading = true;
  renderTemperature();
  try {
    // A class held on this device is unknown to the server: its venue's point is asked, and the answer kept in it.
    const held = klass.on_device;
    const { latitude, longitude } = klass.venue;
    const body = await call(
      'GET',
      held ? `/weather?lat=${encodeURIComponent(latitude)}&lon=${encodeURIComponent(longitude)}` : '/class/weather',
    );
    if (klass && klass.started_at === key) {
      if (held) await patch({ temperature_c: body.temperature_c }, true);
      else klass.temperature_c = body.temperature_c;
    }
  } catch (error) {
    if (error.code === 'no_class') refresh();
    const wait = [15, 60, 300][weather.tries++];
    const why =
      error.status === 503 ? 'The weather service did not answer.' : error.status ? error.message : 'Trove’s server cannot be reached.';
    weather.why = `${why} ${wait ? `Trying again in ${wait < 60 ? `${wait} s` : `${wait / 60} min`}.` : 'Try again later, or type it.'}`;
    if (wait)
      weather.timer = setTimeout(() => {
        if (klass?.started_at === key && celsius() == null) fetchWeather();
      }, wait * 1000);
  }
  weather.loading = false;
  renderTemperature();
}

function openTemperature() {
  const unit = state.settings.temperature_unit;
  txt('temp-label', `Outside temperature, °${unit === 'fahrenheit' ? 'F' : 'C'}`);
  $('temp-input').value = temperatureValue(celsius(), unit);
  err('temp-error');
  show('temp-form');
  show('temp-edit', false);
  $('temp-input').focus();
}

function closeTemperature() {
  show('temp-form', false);
  show('temp-edit');
  $('temp-edit').focus();
}

function saveTemperature(event) {
  event.preventDefault();
  const c = parseTemperature($('temp-input').value, state.settings.temperature_unit);
  if (Number.isNaN(c) || c < -90 || c > 60) {
    err(
      'temp-error',
      new Error(`Type a temperature such as ${state.settings.temperature_unit === 'fahrenheit' ? '64 or 28.5' : '18 or -2.5'}.`),
    );
    return;
  }
  localStorage.setItem(TYPED, JSON.stringify({ for: klass.started_at, c }));
  patch({ temperature_c: c }, true);
  clearTimeout(weather.timer);
  closeTemperature();
  renderTemperature();
  say(c === null ? 'Temperature cleared' : `Temperature ${temperature(c)} saved`);
}

async function loadRegulars() {
  regulars = [];
  try {
    if (klass.venue.id) regulars = (await call('GET', `/venues/${enc(klass.venue.id)}/regulars`)).students;
  } catch {
    /* the picker is then simply A to Z */
  }
  // A picker opened before they came is drawn again (picker.js draws on its search field's input).
  if (regulars.length && $('picker-dialog').open) $('picker-q').dispatchEvent(new Event('input'));
}

export async function patch(body, quiet) {
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
  $('attendee-list').replaceChildren(
    ...klass.attendees.map((a) =>
      make(
        'li',
        { className: 'yg-row' },
        span('yg-row-main', a.name),
        make(
          'button',
          {
            className: 'button quiet yg-x',
            'aria-label': `Remove ${a.name}`,
            onclick: (e) => removeAttendee(a, e.currentTarget),
          },
          '×',
        ),
      ),
    ),
  );
  txt('attendee-count', String(klass.attendees.length));
  show('attendee-empty', !klass.attendees.length);
}

/** After a row goes, the focus goes to the row now in its place (or the + button). */
export function refocus(listID, index, fallback) {
  const items = $(listID).querySelectorAll('button');
  (items[Math.min(index, items.length - 1)] || $(fallback)).focus();
}

async function removeAttendee(attendee, button) {
  const index = [...$('attendee-list').children].indexOf(button.closest('li'));
  if (await busy(button, () => patch({ remove: [attendee.id] }))) say(`${attendee.name} removed`);
  refocus('attendee-list', index, 'add-attendees');
}

// Notes typed and not yet saved ({ for: the class's started_at, notes, was }), kept on the device at once: a page
// left before they were saved (offline too) saves them when it is opened again.
const NOTES = 'yoga.classNotes';
const draft = () => {
  try {
    return JSON.parse(localStorage.getItem(NOTES));
  } catch {
    return null;
  }
};
const keepDraft = () =>
  klass && localStorage.setItem(NOTES, JSON.stringify({ for: klass.started_at, notes: $('class-notes').value, was: notesBase }));
// Each save says what it was typed over (`was`: the notes as last saved or read here), so the server keeps what
// another device wrote meanwhile beside these (and a save sent late from the outbox follows the one before it).
let notesBase = null;
let notesSending = null; // the notes a save is sending, while it does: the answer decides what the box shows
const withBase = (notes) => (notesBase === null ? { notes } : { notes, was: notesBase });
const notesSave = debounce(async () => {
  if (!klass) return;
  const area = $('class-notes');
  const notes = area.value;
  txt('notes-state', 'Saving…');
  notesSending = notes;
  const saved = await patch(withBase(notes), true).finally(() => (notesSending = null));
  if (!saved) return txt('notes-state', 'Not saved: check your connection');
  const kept = klass?.notes ?? notes;
  if (area.value === notes) {
    if (kept !== notes) {
      // Another device's words joined these: shown where they are, the caret where it was among these words.
      const place = (at) =>
        kept.endsWith(notes.slice(at)) ? kept.length - (notes.length - at) : kept.startsWith(notes.slice(0, at)) ? at : kept.length;
      const [from, to] = [place(area.selectionStart), place(area.selectionEnd)];
      setSavedText(area, kept);
      if (document.activeElement === area) area.setSelectionRange(from, to);
    }
    notesBase = kept;
    if (draft()?.notes === notes) localStorage.removeItem(NOTES);
  } else {
    notesBase = notes; // typed on meanwhile: the next save goes over this one
    if (draft()) keepDraft();
  }
  txt('notes-state', kept === notes ? 'Saved' : 'Changed on another device meanwhile: both notes are kept');
}, 800);

/** A page going away: the notes typed in its last moment are sent (the server's class) and kept as a draft. */
function sendNotesNow() {
  if (!notesSave.pending() || globalThis.troveStale) return;
  notesSave.cancel();
  if (klass?.on_device) return; // held on this device: the draft is saved into it when the page opens again
  fetch('/api/v1/yoga/class', {
    method: 'PATCH',
    keepalive: true,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(withBase($('class-notes').value)),
  }).catch(() => {});
}

async function endClass(action) {
  if (ending || !klass) return;
  ending = true;
  err('end-error');
  const dialog = $('end-dialog');
  const typedHere = typed();
  try {
    if (notesSave.pending()) await notesSave.flush();
    const body = await call('POST', '/class/end', { action });
    if (dialog.open) dialog.close();
    const s = body.session;
    if (s && typedHere && s.temperature_c !== typedHere.c) {
      // The temperature typed during the class, into the saved session.
      s.temperature_c = typedHere.c;
      await call('PUT', `/sessions/${enc(s.id)}`, {
        started_at: s.started_at,
        ended_at: s.ended_at,
        notes: s.notes,
        attendees: s.attendees.map((a) => a.id).filter(Boolean),
        temperature_c: typedHere.c,
      }).catch((error) => toast(error.message));
    }
    localStorage.removeItem(TYPED);
    localStorage.removeItem(NOTES);
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
  txt(
    'end-summary',
    `${klass.venue.name} · ${plural(klass.attendees.length, 'student')} · ${formatDuration(seconds)}. Save it to your sessions, or discard it?`,
  );
  err('end-error');
  showModal($('end-dialog'));
  $('end-save').focus();
}

async function discard() {
  $('end-dialog').close();
  if (await confirmDialog({ title: 'Discard this class?', text: 'Its attendance and notes will be lost.', ok: 'Discard' }))
    endClass('discard');
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
    setTimeout(() => {
      swallowClick = false;
    }, 800);
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
    fallback = setTimeout(() => {
      if (press.due(performance.now())) fire();
    }, 620); // frames may be throttled
  });
  button.addEventListener('pointerup', () => {
    if (press.pressing && press.up(performance.now()) === 'long' && button.classList.contains('is-pressing')) fire();
    reset();
  });
  const cancel = () => {
    if (press.pressing) {
      press.cancel();
      reset();
    }
  };
  button.addEventListener('pointercancel', cancel);
  button.addEventListener('lostpointercapture', () => setTimeout(cancel));
  button.addEventListener('contextmenu', (event) => event.preventDefault());
  button.addEventListener('click', () => {
    if (swallowClick) swallowClick = false;
    else openEndDialog();
  });
}

export function showIdle() {
  mode('class-idle');
  show('repeat', false);
  loadSessions()
    .then((sessions) => {
      // Repeat the last session if its venue is still saved.
      lastSession = sessions[0] && sessions[0].venue.id ? sessions[0] : null;
      show('repeat', lastSession);
      if (lastSession) txt('repeat-venue', lastSession.venue.name);
    })
    .catch(() => {});
}

/** Checks in; an error is thrown to the caller, except "a class is already running", which shows it. */
export async function checkIn(payload) {
  if (checking) return;
  checking = true;
  try {
    const body = await call('POST', '/class', payload);
    setClass(body.class);
    $('typed-form').reset();
    txt('typed-here-state', '');
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

export function init() {
  const back = () => {
    showIdle();
    $('checkin').focus();
  };
  // The check-in panels (yoga/checkin.js) load when one is opened: the idle first view does not need them.
  click('checkin', () => checkinPanel().then((m) => m.openCheckin()));
  click('repeat', () => checkinPanel().then((m) => m.openRepeat(lastSession)));
  click('checkin-cancel', back);
  click('repeat-cancel', back);
  click('temp-retry', () => fetchWeather());
  click('temp-edit', openTemperature);
  click('temp-cancel', closeTemperature);
  listen('temp-form', 'submit', saveTemperature);

  // The attendee picker (yoga/picker.js) loads when it is first opened.
  click('add-attendees', () =>
    import('./picker.js').then(
      (m) => m.openPicker(),
      (error) => toast(error.message),
    ),
  );
  click('picker-done', () => $('picker-dialog').close());
  listen('picker-dialog', 'close', () => $('add-attendees').focus());

  listen('class-notes', 'input', () => {
    txt('notes-state', 'Not saved yet');
    keepDraft();
    notesSave();
  });
  listen('class-notes', 'blur', () => notesSave.flush());
  window.addEventListener('pagehide', sendNotesNow);

  wireLongPress();
  click('end-save', () => endClass('save'));
  click('end-discard', discard);
  click('end-keep', () => $('end-dialog').close());

  on('settings', renderTemperature);
  addEventListener('online', giveToServer);
  addEventListener('trove:synced', giveToServer);
  on('sessions', () => {
    if (!klass && open('class-idle')) showIdle();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && !ending && !checking) refresh();
  });
  loaded = refresh();
}

export const ready = () => loaded;
/** The tab shown; coming from another view, read again: a class may have started or ended on another device. */
export const showTab = (_, from) => {
  renderTimer();
  if (from && from !== 'class' && !ending && !checking) refresh();
};
