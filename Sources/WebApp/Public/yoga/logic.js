// YogiYogini: pure functions (no DOM), tested with node's runner (tests/js/yoga-*.test.mjs).

export const pad = (n) => String(n).padStart(2, '0');

/** A running timer: "hh:mm:ss" (hours keep counting past 99). */
export function formatClock(seconds) {
  const s = Math.max(0, Math.floor(Number(seconds) || 0));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

/** A class's length for people: "1 h 05 min", "45 min", "under a minute". */
export function formatDuration(seconds) {
  const minutes = Math.floor(Math.max(0, Number(seconds) || 0) / 60);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${pad(minutes % 60)} min`;
}

/**
 * A session's length as its times read ("4:00 PM – 5:15 PM" is 1 h 15 min), whatever seconds each time had: from
 * the seconds recorded, a class started at 4:00:40 and corrected to end at 5:15 read "1 h 14 min".
 */
export const shownDuration = (startedAt, endedAt) =>
  formatDuration(60 * (Math.floor(Date.parse(endedAt) / 60000) - Math.floor(Date.parse(startedAt) / 60000)));

/** Two shown times as one span: "9:00 AM–10:15 AM", or "9:59 AM" alone for a class that began and ended within it. */
export const timeSpan = (from, to) => (from === to ? from : `${from}–${to}`);

/** Seconds run at `now` (ms): the server's elapsed_seconds plus the time since it answered, so a wrong device clock is harmless. */
export function elapsedAt(klass, receivedAt, now) {
  if (klass && Number.isFinite(klass.elapsed_seconds)) {
    return Math.max(0, klass.elapsed_seconds + (now - receivedAt) / 1000);
  }
  const started = Date.parse(klass && klass.started_at);
  return Number.isFinite(started) ? Math.max(0, (now - started) / 1000) : 0;
}

export const toFahrenheit = (celsius) => (celsius * 9) / 5 + 32;

/** The API's Celsius in the chosen unit, one decimal: "18.5 °C", "65.3 °F"; null → null. */
export function formatTemperature(celsius, unit) {
  if (celsius === null || celsius === undefined || !Number.isFinite(Number(celsius))) return null;
  const f = unit === 'fahrenheit';
  const value = Math.round((f ? toFahrenheit(Number(celsius)) : Number(celsius)) * 10) / 10;
  return `${Object.is(value, -0) ? 0 : value} °${f ? 'F' : 'C'}`;
}

/** A temperature typed in the chosen unit → Celsius, two decimals ('' → null; not a number → NaN). */
export function parseTemperature(text, unit) {
  const t = String(text ?? '')
    .trim()
    .replace(',', '.')
    .replace('−', '-');
  if (!t) return null;
  const n = /^[-+]?\d+(\.\d*)?$/.test(t) ? Number(t) : NaN;
  return Math.round((unit === 'fahrenheit' ? ((n - 32) * 5) / 9 : n) * 100) / 100;
}

/** Celsius as a number in the chosen unit, one decimal, for a form ('' for none). */
export function temperatureValue(celsius, unit) {
  if (celsius === null || celsius === undefined) return '';
  const value = Math.round((unit === 'fahrenheit' ? toFahrenheit(celsius) : celsius) * 10) / 10;
  return String(Object.is(value, -0) ? 0 : value);
}

/** "120 m", "1.4 km". */
export function formatDistance(metres) {
  if (!Number.isFinite(metres)) return '';
  if (metres < 1000) return `${Math.round(metres / 10) * 10} m`;
  return `${(metres / 1000).toFixed(metres < 10000 ? 1 : 0)} km`;
}

/** Lower case without accents, for searching as people type. */
export function fold(text) {
  return String(text ?? '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .trim();
}

/** Every word of the query appears in the text: "an bi" finds "Anna Bianchi". */
export function matches(text, query) {
  const q = fold(query).split(/\s+/).filter(Boolean);
  if (!q.length) return true;
  const t = fold(text);
  return q.every((word) => t.includes(word));
}

export const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
export const byName = (a, b) => collator.compare(a.name, b.name);

/** "Repeat last time": the venue's regulars, most often first, ticked if they came last time; then the rest of last time's active students. */
export function proposeRegulars(regulars, lastAttendees = [], activeStudents = null) {
  const active = activeStudents ? new Map(activeStudents.map((s) => [s.id, s])) : null;
  const came = new Set(lastAttendees.map((a) => a.id).filter(Boolean));
  const seen = new Set();
  const out = [];
  for (const r of [...regulars].sort((a, b) => (b.times || 0) - (a.times || 0))) {
    if (seen.has(r.id) || (active && !active.has(r.id))) continue;
    seen.add(r.id);
    out.push({ id: r.id, name: r.name, times: r.times || 0, checked: came.has(r.id) });
  }
  for (const a of lastAttendees) {
    if (!a.id || seen.has(a.id) || (active && !active.has(a.id))) continue;
    seen.add(a.id);
    out.push({ id: a.id, name: active ? active.get(a.id).name : a.name, times: 0, checked: true });
  }
  return out;
}

/** Students not yet attending (only the active ones unless `inactive`), the venue's regulars first. */
export function pickerStudents(students, attendeeIds, regulars = [], inactive = false) {
  const here = new Set(attendeeIds);
  const times = new Map(regulars.map((r) => [r.id, r.times || 0]));
  return students
    .filter((s) => (s.active || inactive) && !here.has(s.id))
    .sort((a, b) => (times.get(b.id) || 0) - (times.get(a.id) || 0) || byName(a, b));
}

/** A long press: fires once `duration` ms after down(); an earlier up() is a short press. Times in ms. */
export function createLongPress(duration = 600) {
  let start = null;
  let fired = false;
  return {
    get pressing() {
      return start !== null;
    },
    down(t) {
      start = t;
      fired = false;
    },
    progress(t) {
      return start === null ? 0 : Math.min(1, Math.max(0, (t - start) / duration));
    },
    due(t) {
      if (start === null || fired || t - start < duration) return false;
      fired = true;
      return true;
    },
    up(t) {
      if (start === null) return 'none';
      const long = fired || t - start >= duration;
      start = null;
      fired = false;
      return long ? 'long' : 'short';
    },
    cancel() {
      start = null;
      fired = false;
    },
  };
}

/**
 * The fields (`names`: each field's words) where the record saved is not what an edit sent, joined by "and" ('' when
 * none): what the server kept from another device's change meanwhile. A list is compared as a set.
 */
export function keptFromElsewhere(sent, saved, names) {
  const value = (v) => (Array.isArray(v) ? [...v].sort().join() : (v ?? null));
  const kept = Object.keys(names)
    .filter((f) => value(sent[f]) !== value(saved[f]))
    .map((f) => names[f]);
  return kept.length > 1 ? `${kept.slice(0, -1).join(', ')} and ${kept.at(-1)}` : kept.join('');
}

/** `fn` once, `ms` after the last call; flush() runs it now, cancel() drops it. */
export function debounce(fn, ms) {
  let timer = null;
  let args = null;
  const run = () => {
    const a = args;
    timer = null;
    args = null;
    return fn(...a);
  };
  const debounced = (...a) => {
    args = a;
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
  debounced.flush = () => {
    if (timer === null) return undefined;
    clearTimeout(timer);
    return run();
  };
  debounced.cancel = () => {
    clearTimeout(timer);
    timer = null;
    args = null;
  };
  debounced.pending = () => timer !== null;
  return debounced;
}

// The one plural of every app (js/format.js), here too so the tabs import their wording from one place.
export { plural } from '../js/format.js';
