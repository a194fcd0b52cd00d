// YogiYogini, Sessions tab: past classes (sortable), a session's details and corrections, statistics, settings.
import { toast } from '../js/api.js';
import {
  $,
  txt,
  show,
  err,
  make,
  span,
  checkRow,
  listen,
  click,
  say,
  busy,
  formatDate,
  formatTime,
  formatDay,
  formatMonth,
  confirmDialog,
  svg,
  setSavedText,
} from './dom.js';
import { call, state, emit, on, temperature, loadStudents, loadSessions, studentsChanged } from './store.js';
import { plural, parseTemperature, shownDuration, temperatureValue, timeSpan, keptFromElsewhere } from './logic.js';
import { sortSessions, defaultOrder, toLocalInput, fromLocalInput, fillMonths, localDate, niceMax, barLength } from './lists.js';

// The list's sort is remembered on this device, across reloads.
const SORT_KEY = 'yoga.sessionSort';
const view = { sort: 'date', order: 'desc' };
try {
  Object.assign(view, JSON.parse(localStorage.getItem(SORT_KEY)) || {});
} catch {
  /* the default then */
}
const keepSort = () => {
  try {
    localStorage.setItem(SORT_KEY, JSON.stringify(view));
  } catch {
    /* not kept */
  }
};
const ORDER = {
  date: ['Oldest first', 'Newest first'],
  venue: ['A to Z', 'Z to A'],
  attendance: ['Fewest first', 'Most first'],
  duration: ['Shortest first', 'Longest first'],
};
if (!ORDER[view.sort] || !['asc', 'desc'].includes(view.order)) Object.assign(view, { sort: 'date', order: 'desc' });
let current = null; // the session on the detail view
let opened = null; // the session as its correction's form was opened: the edit's `base`

const sessionPath = (id) => `/sessions/${encodeURIComponent(id)}`;
const degrees = (c) => temperature(c) || 'not recorded';

export async function showList() {
  try {
    await loadSessions(true);
  } catch (error) {
    txt('session-count', `Could not load the sessions: ${error.message}`);
    return;
  }
  renderList();
}

function renderList() {
  if (!state.sessions) return;
  const list = sortSessions(state.sessions, view.sort, view.order);
  txt('session-order', ORDER[view.sort][view.order === 'asc' ? 0 : 1]);
  $('session-list').replaceChildren(
    ...list.map((s) =>
      make(
        'li',
        {},
        make(
          'a',
          { className: 'yg-item', href: `#session/${encodeURIComponent(s.id)}`, dataset: { id: s.id } },
          span('yg-item-title', s.venue.name),
          span('yg-item-meta', `${formatDate(s.started_at)} · ${timeSpan(formatTime(s.started_at), formatTime(s.ended_at))}`),
          span(
            'yg-item-meta',
            [plural(s.attendance, 'student'), shownDuration(s.started_at, s.ended_at), temperature(s.temperature_c)]
              .filter(Boolean)
              .join(' · '),
          ),
        ),
      ),
    ),
  );
  txt('session-count', plural(list.length, 'session'));
  $('session-empty').hidden = list.length > 0;
  const back = current && $('session-list').querySelector(`[data-id="${CSS.escape(current.id)}"]`);
  if (back) back.focus();
  current = null;
}

export async function showDetail(id) {
  current = null;
  txt('session-heading', 'Session');
  show('session-loading', true);
  txt('session-loading', 'Loading…');
  show('session-show', false);
  show('session-form', false);
  try {
    current = await call('GET', sessionPath(id));
  } catch (error) {
    txt('session-loading', error.status === 404 ? 'This session does not exist (any more).' : error.message);
    return;
  }
  renderDetail();
  $('session-heading').focus();
}

function renderDetail() {
  const s = current;
  show('session-loading', false);
  show('session-show', true);
  show('session-form', false);
  txt('session-heading', s.venue.name);
  txt('session-address', s.venue.address || '');
  txt('session-date', formatDate(s.started_at));
  txt('session-start', formatTime(s.started_at));
  txt('session-end', formatTime(s.ended_at));
  txt('session-duration', shownDuration(s.started_at, s.ended_at));
  txt('session-temp', degrees(s.temperature_c));
  txt('session-attendance', plural(s.attendance, 'student'));
  $('session-attendees').replaceChildren(
    ...s.attendees.map((a) =>
      make(
        'li',
        {},
        a.id ? make('a', { href: `#student/${encodeURIComponent(a.id)}` }, a.name) : a.name,
        a.id ? null : span('yg-muted', ' (no longer on the roster)'),
      ),
    ),
  );
  if (!s.attendees.length) $('session-attendees').append(make('li', { className: 'yg-muted', text: 'Nobody was recorded.' }));
  txt('session-notes', s.notes || 'No notes.');
}

// A correction sends the session as its form was opened (`base`): the server keeps what another device corrected
// meanwhile in what this form left alone, and both devices' notes.
const asOpened = (s) => ({
  started_at: s.started_at,
  ended_at: s.ended_at,
  attendees: s.attendees.map((a) => a.id).filter(Boolean),
  notes: s.notes || '',
  temperature_c: s.temperature_c ?? null,
});
const CORRECTED = { started_at: 'start', ended_at: 'end', attendees: 'attendees', notes: 'notes', temperature_c: 'temperature' };

async function openEdit() {
  const s = current;
  opened = asOpened(s);
  let roster = [];
  try {
    roster = await loadStudents();
  } catch (error) {
    toast(error.message);
    return;
  }
  const here = new Set(s.attendees.map((a) => a.id).filter(Boolean));
  $('edit-start').value = toLocalInput(s.started_at);
  $('edit-end').value = toLocalInput(s.ended_at);
  const people = [...roster].sort((a, b) => Number(here.has(b.id)) - Number(here.has(a.id)) || Number(b.active) - Number(a.active));
  $('edit-attendees').replaceChildren(
    ...people.map((p) => checkRow(p.id, here.has(p.id), p.name, p.active ? null : span('yg-muted', ' (not active)'))),
  );
  const former = s.attendees.filter((a) => !a.id).map((a) => a.name);
  show('edit-former', former.length);
  txt('edit-former', `Also attending, no longer on the roster: ${former.join(', ')}.`);
  setSavedText($('edit-notes'), s.notes || '');
  const unit = state.settings.temperature_unit;
  txt('edit-temp-label', `Outside temperature, °${unit === 'fahrenheit' ? 'F' : 'C'}`);
  $('edit-temp').value = temperatureValue(s.temperature_c, unit);
  err('session-error');
  show('session-show', false);
  show('session-form', true);
  $('edit-start').focus();
}

async function saveEdit(event) {
  event.preventDefault();
  const s = current;
  const start = $('edit-start').value === toLocalInput(s.started_at) ? s.started_at : fromLocalInput($('edit-start').value);
  const end = $('edit-end').value === toLocalInput(s.ended_at) ? s.ended_at : fromLocalInput($('edit-end').value);
  const unit = state.settings.temperature_unit;
  // Unchanged, the stored value goes back as it was (not rounded through the form).
  const typed =
    $('edit-temp').value === temperatureValue(s.temperature_c, unit)
      ? (s.temperature_c ?? null)
      : parseTemperature($('edit-temp').value, unit);
  const problem =
    !start || !end
      ? 'Give the start and the end.'
      : Date.parse(end) <= Date.parse(start)
        ? 'The end must come after the start.'
        : Number.isNaN(typed) || typed < -90 || typed > 60
          ? 'Type the temperature as a number, such as 18 or -2.5, or leave it empty.'
          : '';
  if (problem) {
    err('session-error', new Error(problem));
    return;
  }
  const body = {
    started_at: start,
    ended_at: end,
    notes: $('edit-notes').value,
    temperature_c: typed,
    attendees: [...$('edit-attendees').querySelectorAll('input:checked')].map((i) => i.value),
  };
  await busy($('session-save'), async () => {
    try {
      current = await call('PUT', sessionPath(s.id), { ...body, base: opened });
      changed();
      renderDetail();
      const kept = keptFromElsewhere(body, asOpened(current), CORRECTED);
      if (kept) toast(`Session saved, with the ${kept} changed on another device meanwhile.`);
      else say('Session saved');
      $('session-edit').focus();
    } catch (error) {
      err('session-error', error);
    }
  });
}

async function deleteSession() {
  const s = current;
  const sure = await confirmDialog({
    title: 'Delete this session?',
    text: `${s.venue.name}, ${formatDate(s.started_at)}, ${plural(s.attendance, 'student')}. This cannot be undone.`,
  });
  if (!sure) return;
  try {
    await call('DELETE', sessionPath(s.id));
    toast('Session deleted');
    changed();
    // The deleted session's address is gone: its entry becomes the list (the router hears the hashchange).
    history.replaceState(history.state, '', '#sessions');
    dispatchEvent(new HashChangeEvent('hashchange'));
  } catch (error) {
    toast(error.message);
  }
}

function changed() {
  emit('sessions');
  studentsChanged();
}

export async function showStats() {
  show('stats-loading', true);
  txt('stats-loading', 'Loading…');
  let stats;
  try {
    stats = await call('GET', '/stats');
  } catch (error) {
    txt('stats-loading', `Could not load the statistics: ${error.message}`);
    return;
  }
  show('stats-loading', false);
  show('stats-body', true);
  const weeks = stats.slipping_weeks;
  txt('slipping-intro', `Active students not seen for ${plural(weeks, 'week')} or more.`);
  $('slipping-list').replaceChildren(
    ...stats.slipping.map((s) =>
      make(
        'li',
        {},
        s.name,
        make('span', {
          className: 'yg-muted',
          text: s.last_seen
            ? ` · last seen ${formatDay(s.last_seen)}${s.weeks_absent !== null ? ` (${plural(s.weeks_absent, 'week')} ago)` : ''}`
            : ' · has not come to a class yet',
        }),
      ),
    ),
  );
  if (!stats.slipping.length) $('slipping-list').append(make('li', { className: 'yg-muted', text: 'Nobody: everyone came recently.' }));

  const students = [...stats.students].sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
  chart(
    'chart-students',
    'Sessions per student',
    students.filter((s) => s.total > 0).map((s) => ({ label: s.name, value: s.total, text: String(s.total) })),
  );
  $('stats-students').tBodies[0].replaceChildren(
    ...students.map((s) =>
      make(
        'tr',
        {},
        make(
          'th',
          { scope: 'row' },
          make('a', { href: `#student/${encodeURIComponent(s.id)}` }, s.name),
          s.active ? null : span('yg-muted', ' (not active)'),
        ),
        ...[s.sessions_30d, s.sessions_90d, s.total, formatDay(s.last_seen)].map((value, i) =>
          make('td', { text: String(value), 'data-label': LABELS[i] }),
        ),
      ),
    ),
  );

  chart(
    'chart-venues',
    'Sessions per venue',
    stats.venues.map((v) => ({
      label: v.name,
      value: v.sessions,
      text: `${plural(v.sessions, 'class', 'classes')} · ${(Math.round(v.average_attendance * 10) / 10).toLocaleString()} per class`,
    })),
  );
  const months = fillMonths(stats.months, localDate().slice(0, 7), 12);
  while (months.length && !months[0].sessions) months.shift();
  chart(
    'chart-months',
    'Attendance per month',
    months.map((m) => ({
      label: formatMonth(m.month),
      value: m.attendance,
      text: `${m.attendance} · ${plural(m.sessions, 'class', 'classes')}`,
    })),
  );
}

// Each figure's name, shown beside it where the table is too narrow for its header row (yoga.css).
const LABELS = ['30 days', '90 days', 'Total', 'Last seen'];

/** rows: [{label, value, text}] → an <svg> as wide as `width` px. */
function barChart(rows, { width = 320, title = '' } = {}) {
  const w = Math.max(220, Math.round(Math.min(width, 720)));
  const row = 38;
  // Room for the longest figure beside its bar (13 px text: about 7 px a character).
  const track = Math.max(60, w - 12 - 7 * Math.max(4, ...rows.map((r) => r.text.length)));
  const max = niceMax(Math.max(0, ...rows.map((r) => r.value)));
  const chart = svg('svg', {
    class: 'yg-bars',
    viewBox: `0 0 ${w} ${rows.length * row}`,
    width: w,
    height: rows.length * row,
    role: 'img',
    'aria-label': `${title}: ${rows.map((r) => `${r.label}, ${r.text}`).join('; ')}`,
  });
  rows.forEach((r, i) => {
    const y = i * row;
    const length = barLength(r.value, max, track);
    chart.append(
      // A label longer than the chart is cut with an ellipsis (bold 14 px: about 8.5 px a character); the chart's
      // aria-label has it whole.
      svg(
        'text',
        { x: 0, y: y + 14, class: 'yg-bar-label' },
        r.label.length > w / 8.5 ? `${r.label.slice(0, Math.floor(w / 8.5) - 1)}…` : r.label,
      ),
      svg('rect', { x: 0, y: y + 20, width: track, height: 12, rx: 3, class: 'yg-track' }),
      svg('rect', { x: 0, y: y + 20, width: length, height: 12, rx: 3, class: 'yg-bar' }),
      svg('text', { x: track + 8, y: y + 31, class: 'yg-bar-value' }, r.text),
    );
  });
  return chart;
}

function chart(id, title, rows) {
  const box = $(id);
  box.replaceChildren(
    rows.length
      ? barChart(rows, { width: box.clientWidth || 320, title })
      : make('p', { className: 'yg-muted', text: 'Nothing yet: saved classes show up here.' }),
  );
  // The estimate above misses wide letters: a label still wider than the chart, measured now, is cut further.
  for (const label of box.querySelectorAll('.yg-bar-label')) {
    const whole = label.textContent.replace(/…$/, '');
    const width = label.ownerSVGElement.viewBox.baseVal.width;
    for (let n = whole.length; n > 1 && label.getComputedTextLength() > width; n -= 1) {
      label.textContent = `${whole.slice(0, n - 1).trimEnd()}…`;
    }
  }
}

// The form shows only what it read from the server (or the device's copy of it), and stays disabled until then:
// it never shows, nor saves back, the defaults it would have before that answer.
let settingsRead = false;
const settingsFields = (on) => {
  for (const field of $('settings-form').elements) field.disabled = !on;
};

export async function showSettings() {
  settingsRead = false;
  settingsFields(false);
  txt('settings-state', 'Loading…');
  err('settings-error');
  try {
    state.settings = await call('GET', '/settings');
  } catch (error) {
    txt('settings-state', '');
    err('settings-error', new Error(`Your settings could not be loaded: ${error.message}`));
    return;
  }
  const { temperature_unit: unit, slipping_weeks: weeks } = state.settings;
  $(unit === 'fahrenheit' ? 'unit-fahrenheit' : 'unit-celsius').checked = true;
  $('slipping-weeks').value = weeks;
  txt('settings-state', '');
  settingsRead = true;
  settingsFields(true);
  emit('settings');
}

async function saveSettings(event) {
  if (event) event.preventDefault();
  if (!settingsRead) return;
  const weeks = Number($('slipping-weeks').value);
  if (!Number.isInteger(weeks) || weeks < 1 || weeks > 52) {
    err('settings-error', new Error('Choose from 1 to 52 weeks.'));
    return;
  }
  err('settings-error');
  txt('settings-state', 'Saving…');
  try {
    state.settings = await call('PUT', '/settings', {
      temperature_unit: $('unit-fahrenheit').checked ? 'fahrenheit' : 'celsius',
      slipping_weeks: weeks,
    });
    txt('settings-state', 'Saved');
    emit('settings');
  } catch (error) {
    txt('settings-state', '');
    err('settings-error', error);
  }
}

/** Your venues: renamed (Enter, Done, leaving the field or Rename) and deleted; sessions keep their copies. */
export async function showVenues(focusID) {
  let venues;
  try {
    venues = (await call('GET', '/venues')).venues;
  } catch (error) {
    err('venues-error', error);
    return;
  }
  $('venue-list').replaceChildren(
    ...venues.map((v) => {
      const input = make('input', {
        className: 'input',
        value: v.name,
        maxlength: '100',
        'aria-label': `Name of the venue ${v.name}`,
        autocomplete: 'off',
        enterkeyhint: 'done',
      });
      const rename = make('button', { className: 'button' }, 'Rename');
      const remove = make('button', { type: 'button', className: 'button quiet', 'aria-label': `Delete the venue ${v.name}` }, 'Delete');
      const row = make(
        'li',
        {},
        make(
          'form',
          { className: 'yg-type', novalidate: true, onsubmit: (e) => save(e), dataset: { id: v.id } },
          input,
          span('yg-muted', [v.address, plural(v.session_count || 0, 'session')].filter(Boolean).join(' · ')),
          rename,
          remove,
        ),
      );
      // A change updates its own row: redrawing the list would move the rows under a finger about to tap one.
      const save = (event) => {
        event.preventDefault();
        const name = input.value.trim();
        if (!name || name === v.name) return;
        venueChange(rename, 'PUT', v, { name, address: v.address || '', favourite: !!v.favourite, base: asKnown(v) }, () => {
          v.name = name;
          input.setAttribute('aria-label', `Name of the venue ${name}`);
          remove.setAttribute('aria-label', `Delete the venue ${name}`);
        });
      };
      input.addEventListener('change', save);
      remove.addEventListener('click', () =>
        deleteVenue(v, remove, () => {
          row.remove();
          show('venue-empty', !$('venue-list').children.length);
        }),
      );
      return row;
    }),
  );
  show('venue-empty', !venues.length);
  const again = focusID && $('venue-list').querySelector(`[data-id="${CSS.escape(focusID)}"] input`);
  if (again) again.focus();
}

/** A venue as this page knows it, sent with a rename: a star given elsewhere meanwhile is kept. */
const asKnown = (v) => ({ name: v.name, address: v.address || '', favourite: !!v.favourite });

async function venueChange(button, method, venue, body, done) {
  err('venues-error');
  await busy(button, async () => {
    try {
      await call(method, `/venues/${encodeURIComponent(venue.id)}`, body);
      say(method === 'PUT' ? `Renamed to ${body.name}` : `${venue.name} deleted`);
      done();
    } catch (error) {
      err('venues-error', error);
    }
  });
}

async function deleteVenue(venue, button, done) {
  if (
    await confirmDialog({
      title: `Delete the venue ${venue.name}?`,
      text: `It leaves your venues. ${venue.session_count ? `Its ${plural(venue.session_count, 'session')} keep its name and address.` : ''}`.trim(),
    })
  )
    await venueChange(button, 'DELETE', venue, undefined, done);
}

export function init() {
  // The session form's temperature (drawn with the tab, not in every first load).
  $('edit-notes').parentElement.before(
    make(
      'div',
      { className: 'field' },
      make('label', { for: 'edit-temp', id: 'edit-temp-label', text: 'Outside temperature' }),
      make('input', { type: 'number', step: 'any', id: 'edit-temp', 'aria-describedby': 'edit-temp-hint' }),
      make('p', { className: 'hint', id: 'edit-temp-hint', text: 'Leave it empty if you do not know it.' }),
    ),
  );
  $('session-sort').value = view.sort;
  listen('session-sort', 'change', () => {
    view.sort = $('session-sort').value;
    view.order = defaultOrder(view.sort);
    keepSort();
    renderList();
  });
  click('session-order', () => {
    view.order = view.order === 'asc' ? 'desc' : 'asc';
    keepSort();
    renderList();
  });
  // The CSV's times in this browser's time zone (the server writes them in the zone it is given).
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone) for (const id of ['export-sessions', 'export-attendance']) $(id).search += `&tz=${encodeURIComponent(zone)}`;
  click('session-edit', openEdit);
  click('session-delete', deleteSession);
  listen('session-form', 'submit', saveEdit);
  click('session-cancel', () => {
    renderDetail();
    $('session-edit').focus();
  });
  listen('settings-form', 'submit', saveSettings);
  listen('settings-form', 'change', () => saveSettings());
  on('sessions', () => {
    if (!$('view-sessions').hidden) showList();
  });
  on('settings', () => {
    if (!$('view-sessions').hidden) renderList();
    if (current && !$('session-show').hidden) renderDetail();
  });
}
