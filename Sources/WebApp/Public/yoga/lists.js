// YogiYogini's lists, pure (tests/js/yoga-logic.test.mjs): sorting and filtering the roster and the sessions,
// the charts' scales, and the date fields. Only the Students and Sessions tabs need them (they load with those
// tabs); the Class tab's logic is in logic.js.
import { matches, collator, byName, pad } from './logic.js';

const time = (iso) => (iso ? Date.parse(iso) || 0 : -Infinity);

/** Names and venues A→Z, the rest biggest or newest first. */
export function defaultOrder(key) {
  return key === 'name' || key === 'venue' ? 'asc' : 'desc';
}

const studentKeys = {
  name: byName,
  joined: (a, b) => collator.compare(a.joined_on || '', b.joined_on || ''),
  attended: (a, b) => (a.sessions_attended || 0) - (b.sessions_attended || 0),
  last_seen: (a, b) => time(a.last_seen) - time(b.last_seen),
};

/** Students sorted by name | joined | attended | last_seen, asc or desc; ties by name, A→Z. */
export function sortStudents(students, key = 'name', order = 'asc') {
  const compare = studentKeys[key] || byName;
  const sign = order === 'desc' ? -1 : 1;
  return [...students].sort((a, b) => sign * compare(a, b) || byName(a, b));
}

/** By query (name, type, notes) and active filter ('all' | 'true' | 'false'). */
export function filterStudents(students, query = '', active = 'all') {
  return students.filter(
    (s) => (active === 'all' || String(!!s.active) === active) && matches(`${s.name} ${s.type_name || ''} ${s.notes || ''}`, query),
  );
}

const sessionKeys = {
  date: (a, b) => time(a.started_at) - time(b.started_at),
  venue: (a, b) => collator.compare(a.venue?.name || '', b.venue?.name || ''),
  attendance: (a, b) => (a.attendance || 0) - (b.attendance || 0),
  duration: (a, b) => (a.duration_seconds || 0) - (b.duration_seconds || 0),
};

/** Sessions sorted by date | venue | attendance | duration; ties newest first. */
export function sortSessions(sessions, key = 'date', order = 'desc') {
  const compare = sessionKeys[key] || sessionKeys.date;
  const sign = order === 'asc' ? 1 : -1;
  return [...sessions].sort((a, b) => sign * compare(a, b) || sessionKeys.date(b, a));
}

/** A round axis top ≥ value: 1, 2, 5 or 10 × 10ⁿ. */
export function niceMax(value) {
  const v = Math.max(1, Number(value) || 0);
  const power = 10 ** Math.floor(Math.log10(v));
  for (const step of [1, 2, 5, 10]) if (step * power >= v) return step * power;
  return 10 * power;
}

/** A bar's length in px; any value above 0 shows. */
export function barLength(value, max, width) {
  if (!(value > 0) || !(max > 0)) return 0;
  return Math.max(2, Math.round((Math.min(value, max) / max) * width * 10) / 10);
}

/** The last `count` months up to `latest` ("YYYY-MM"), oldest first, gaps as zeros. */
export function fillMonths(months, latest, count = 12) {
  const byMonth = new Map(months.map((m) => [m.month, m]));
  let [y, m] = latest.split('-').map(Number);
  const out = [];
  for (let i = 0; i < count; i += 1) {
    const key = `${y}-${pad(m)}`;
    out.unshift(byMonth.get(key) || { month: key, sessions: 0, attendance: 0 });
    m -= 1;
    if (m === 0) {
      m = 12;
      y -= 1;
    }
  }
  return out;
}

/** ISO instant → datetime-local value, in this device's time zone. */
export function toLocalInput(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** datetime-local value → ISO 8601 UTC; nonsense → null. */
export function fromLocalInput(value) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(String(value || ''));
  if (!m) return null;
  const d = new Date(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] || 0));
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Today's date here as "YYYY-MM-DD". */
export const localDate = (now = new Date()) => toLocalInput(now).slice(0, 10);
