// YogiYogini on the device, pure (tests/js/yoga-model.test.mjs): the last answers kept from the server (one
// model: students, types, settings, venues, class, sessions), the answers the yoga API would give from it, and
// each write applied to it, so every tab works with the server away. yoga/local.js keeps the model in IndexedDB.

const DAY = 86400000;
const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const copy = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
const byName = (a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
const newestFirst = (a, b) => Date.parse(b.started_at) - Date.parse(a.started_at);

/**
 * The running class as an answer gives it: its elapsed_seconds counted from its start at `now`, as the server counts
 * them. (The kept class's own elapsed_seconds is as old as the answer it came in: the timer shows that plus the time
 * since this answer, so a change answered from the device with it set the timer back to the last read.)
 */
export function running(klass, now = Date.now()) {
  const c = copy(klass);
  const started = Date.parse(c.started_at);
  if (Number.isFinite(started)) c.elapsed_seconds = Math.max(0, Math.round((now - started) / 1000));
  return c;
}

/** An API error as the server would give it. */
export function refusal(status, code, message) {
  return Object.assign(new Error(message), { name: 'ApiError', status, code, details: [], retryAfter: null });
}

/** The answer to a GET from the model, or undefined when the device does not know it. */
export function answer(model, path, now = Date.now()) {
  const [route] = path.split('?');
  const m = model;
  if (route === '/students' && m.students) return { students: copy(m.students).sort(byName) };
  if (route === '/student-types' && m.types) return { types: copy(m.types) };
  if (route === '/settings' && m.settings) return copy(m.settings);
  if (route === '/venues' && m.venues) return { venues: copy(m.venues) };
  if (route === '/class' && m.class !== undefined) return { class: m.class && running(m.class, now) };
  if (route === '/sessions' && m.sessions) return { sessions: copy(m.sessions).sort(newestFirst) };
  if (route === '/stats' && m.sessions && m.students) return stats(m, now);
  let match = route.match(/^\/sessions\/([^/]+)$/);
  if (match && m.sessions) {
    const s = m.sessions.find((x) => x.id === decodeURIComponent(match[1]));
    if (!s) throw refusal(404, 'session_not_found', 'That session could not be found.');
    return copy(s);
  }
  match = route.match(/^\/students\/([^/]+)\/sessions$/);
  if (match && m.sessions) {
    const id = decodeURIComponent(match[1]);
    return { sessions: copy(m.sessions.filter((s) => s.attendees.some((a) => a.id === id))).sort(newestFirst) };
  }
  match = route.match(/^\/venues\/([^/]+)\/regulars$/);
  if (match && m.sessions && m.students) return { students: regulars(m, decodeURIComponent(match[1])) };
  return undefined;
}

/** Who usually comes to a venue: the roster students of its last 10 sessions, most often first. */
export function regulars(model, venueID) {
  const counts = new Map();
  model.sessions
    .filter((s) => s.venue.id === venueID)
    .sort(newestFirst)
    .slice(0, 10)
    .forEach((s) =>
      s.attendees.forEach((a) => {
        if (a.id) counts.set(a.id, (counts.get(a.id) || 0) + 1);
      }),
    );
  return model.students
    .filter((s) => counts.has(s.id))
    .map((s) => ({ ...copy(s), times: counts.get(s.id) }))
    .sort((a, b) => b.times - a.times || byName(a, b));
}

/** The statistics as GET /stats gives them (YogaStatistics), from the kept sessions and roster. */
export function stats(model, now = Date.now()) {
  const weeks = model.settings?.slipping_weeks ?? 3;
  const total = new Map();
  const d30 = new Map();
  const d90 = new Map();
  const seen = new Map();
  const venues = new Map();
  const months = new Map();
  const add = (map, key, n = 1) => map.set(key, (map.get(key) || 0) + n);
  for (const s of model.sessions) {
    const start = Date.parse(s.started_at);
    const age = now - start;
    for (const a of s.attendees) {
      if (!a.id) continue;
      add(total, a.id);
      if (age <= 30 * DAY) add(d30, a.id);
      if (age <= 90 * DAY) add(d90, a.id);
      if (!(seen.get(a.id) >= start)) seen.set(a.id, start);
    }
    const key = s.venue.id || `name:${s.venue.name}`;
    const v = venues.get(key) || { id: s.venue.id ?? null, name: s.venue.name, sessions: 0, attendance: 0 };
    v.sessions += 1;
    v.attendance += s.attendees.length;
    venues.set(key, v);
    const month = s.started_at.slice(0, 7);
    const m = months.get(month) || { month, sessions: 0, attendance: 0 };
    m.sessions += 1;
    m.attendance += s.attendees.length;
    months.set(month, m);
  }
  const last = (id) => (seen.has(id) ? iso(seen.get(id)) : null);
  const threshold = weeks * 7 * DAY;
  return {
    students: model.students
      .map((s) => ({
        id: s.id,
        name: s.name,
        active: s.active,
        sessions_30d: d30.get(s.id) || 0,
        sessions_90d: d90.get(s.id) || 0,
        total: total.get(s.id) || 0,
        last_seen: last(s.id),
      }))
      .sort((a, b) => b.total - a.total || byName(a, b)),
    venues: [...venues.values()]
      .map((v) => ({ id: v.id, name: v.name, sessions: v.sessions, average_attendance: Math.round((v.attendance / v.sessions) * 10) / 10 }))
      .sort((a, b) => b.sessions - a.sessions || byName(a, b)),
    months: [...months.values()].sort((a, b) => (a.month < b.month ? -1 : 1)),
    slipping: model.students
      .filter((s) => s.active)
      .map((s) => {
        if (seen.has(s.id)) {
          const absent = now - seen.get(s.id);
          return absent >= threshold
            ? { id: s.id, name: s.name, last_seen: last(s.id), weeks_absent: Math.floor(absent / (7 * DAY)) }
            : null;
        }
        const joined = Date.parse(`${s.joined_on}T00:00:00Z`);
        return now - joined >= threshold ? { id: s.id, name: s.name, last_seen: null, weeks_absent: null } : null;
      })
      .filter(Boolean)
      .sort((a, b) => Date.parse(a.last_seen || 0) - Date.parse(b.last_seen || 0) || byName(a, b)),
    slipping_weeks: weeks,
  };
}

const attendee = (m, id) => ({ id, name: m.students?.find((s) => s.id === id)?.name ?? 'Someone' });
const typeName = (m, id) => (id ? (m.types?.find((t) => t.id === id)?.name ?? null) : null);

/** What a finished class becomes: a session, as GET /sessions/{id} shows it. */
export function sessionOf(klass, id, endedAt) {
  const start = Date.parse(klass.started_at);
  const end = iso(endedAt); // whole seconds, as the start: its duration is end minus start, as shown
  return {
    id,
    venue: copy(klass.venue),
    started_at: klass.started_at,
    ended_at: end,
    duration_seconds: Math.max(0, Math.round((Date.parse(end) - start) / 1000)),
    attendees: copy(klass.attendees),
    attendance: klass.attendees.length,
    temperature_c: klass.temperature_c ?? null,
    notes: klass.notes || '',
  };
}

/**
 * The model after the server checked a class in at `venue`: a place typed or found (`place`, as sent), which the server
 * keeps as a venue, is listed as the server now lists it, so check-in offers it with the server away (it said "No saved venues yet").
 */
export function listVenue(model, venue, { source = 'typed', external_id = null } = {}, now = Date.now()) {
  if (!venue?.id || !model.venues || model.venues.some((v) => v.id === venue.id)) return model;
  const { id, name, address = '', latitude = null, longitude = null } = venue;
  const listed = { id, name, address, latitude, longitude, source, external_id, favourite: false };
  return { ...model, venues: [...model.venues, { ...listed, last_used_at: iso(now), session_count: 0 }] };
}

/** Counts a session's students (sessions attended, last seen) and its venue into the roster and venues. */
function count(m, session, sign) {
  for (const a of session.attendees) {
    const s = m.students?.find((x) => x.id === a.id);
    if (!s) continue;
    s.sessions_attended = Math.max(0, (s.sessions_attended || 0) + sign);
    if (sign > 0 && !(Date.parse(s.last_seen || 0) >= Date.parse(session.started_at))) s.last_seen = session.started_at;
  }
  const v = m.venues?.find((x) => x.id === session.venue.id);
  if (v) v.session_count = Math.max(0, (v.session_count || 0) + sign);
}

/**
 * A write applied to the model: { model, answer } as the server would answer it, with `creates` (the new
 * record's temporary id) and `idFrom` (where the server's answer has the real one) for a create. Throws the
 * refusal the server would give where the device can tell (a second class, no class, a student with sessions).
 */
export function apply(model, method, path, body, { now = Date.now(), newId } = {}) {
  const m = copy(model);
  const [route, query = ''] = path.split('?');
  const id = decodeURIComponent(route.split('/')[2] || '');
  const result = (answer, extra) => ({ model: m, answer, ...extra });
  const find = (list, what) => {
    const found = list?.find((x) => x.id === id);
    if (!found) throw refusal(404, `${what}_not_found`, `That ${what.replace('_', ' ')} could not be found.`);
    return found;
  };
  if (route === '/students' && method === 'POST') {
    const s = {
      id: newId(),
      name: body.name,
      joined_on: body.joined_on,
      active: body.active ?? true,
      type_id: body.type_id ?? null,
      type_name: typeName(m, body.type_id),
      notes: body.notes || '',
      sessions_attended: 0,
      last_seen: null,
    };
    (m.students ??= []).push(s);
    return result(copy(s), { creates: s.id, idFrom: 'id' });
  }
  if (/^\/students\/[^/]+$/.test(route)) {
    const s = find(m.students, 'student');
    if (method === 'PUT') {
      Object.assign(s, {
        name: body.name,
        joined_on: body.joined_on,
        active: body.active,
        type_id: body.type_id ?? null,
        type_name: typeName(m, body.type_id),
        notes: body.notes || '',
      });
      return result(copy(s));
    }
    if (s.sessions_attended > 0 && !/confirm=1/.test(query)) {
      throw refusal(409, 'student_has_sessions', `${s.name} came to sessions: confirm to delete.`);
    }
    m.students = m.students.filter((x) => x !== s);
    return result(null);
  }
  if (route === '/student-types' && method === 'POST') {
    const t = { id: newId(), name: body.name, student_count: 0 };
    (m.types ??= []).push(t);
    return result(copy(t), { creates: t.id, idFrom: 'id' });
  }
  if (/^\/student-types\/[^/]+$/.test(route)) {
    const t = find(m.types, 'student_type');
    if (method === 'PUT') {
      t.name = body.name;
      m.students?.forEach((s) => {
        if (s.type_id === t.id) s.type_name = t.name;
      });
      return result(copy(t));
    }
    m.types = m.types.filter((x) => x !== t);
    return result(null);
  }
  if (route === '/settings') {
    m.settings = { ...m.settings, ...body };
    return result(copy(m.settings));
  }
  if (/^\/venues\/[^/]+$/.test(route)) {
    const v = find(m.venues, 'venue');
    if (method === 'DELETE') {
      m.venues = m.venues.filter((x) => x !== v);
      return result(null);
    }
    Object.assign(v, { name: body.name ?? v.name, address: body.address ?? v.address, favourite: body.favourite ?? v.favourite });
    return result(copy(v));
  }
  if (route === '/class' && method === 'POST') {
    if (m.class) throw refusal(409, 'class_in_session', 'A class is already running.');
    let venue;
    if (body.venue_id) {
      // A venue of a past session is known too, though the venue list was never opened on this device.
      const listed = m.venues?.find((x) => x.id === body.venue_id);
      const v = listed ?? m.sessions?.find((x) => x.venue?.id === body.venue_id)?.venue;
      if (!v) throw refusal(404, 'venue_not_found', 'That venue could not be found.');
      venue = { id: v.id, name: v.name, address: v.address || '', latitude: v.latitude ?? null, longitude: v.longitude ?? null };
      if (listed) listed.last_used_at = iso(now);
    } else {
      const p = body.venue || {};
      venue = { id: null, name: p.name, address: p.address || '', latitude: p.latitude ?? null, longitude: p.longitude ?? null };
    }
    m.class = {
      venue,
      started_at: iso(now),
      attendees: (body.attendees || []).map((a) => attendee(m, a)),
      temperature_c: null,
      notes: body.notes || '',
      elapsed_seconds: 0,
      on_device: true,
    };
    if (!body.venue_id) m.class.place = copy(body.venue); // as typed or found: sent with the class (recorded)
    return result({ class: running(m.class, now) });
  }
  if (route === '/class' && method === 'PATCH') {
    if (!m.class) throw refusal(404, 'no_class', 'No class is running.');
    const c = m.class;
    const remove = new Set(body.remove || []);
    c.attendees = c.attendees.filter((a) => !remove.has(a.id));
    for (const a of body.add || []) if (!c.attendees.some((x) => x.id === a)) c.attendees.push(attendee(m, a));
    if (typeof body.notes === 'string') c.notes = body.notes;
    if ('temperature_c' in body) c.temperature_c = body.temperature_c;
    c.changed_on_device = true;
    return result({ class: running(c, now) });
  }
  if (route === '/class/end') {
    if (!m.class) throw refusal(404, 'no_class', 'No class is running.');
    const klass = m.class;
    m.class = null;
    if (body.action !== 'save') return result({ discarded: true });
    const session = sessionOf(klass, newId(), Math.max(now, Date.parse(klass.started_at) + 1000));
    (m.sessions ??= []).unshift(session);
    count(m, session, 1);
    return result({ session: copy(session) }, { creates: session.id, idFrom: 'session.id', klass });
  }
  if (/^\/sessions\/[^/]+$/.test(route)) {
    const s = find(m.sessions, 'session');
    count(m, s, -1);
    if (method === 'DELETE') {
      m.sessions = m.sessions.filter((x) => x !== s);
      return result(null);
    }
    Object.assign(s, {
      started_at: body.started_at,
      ended_at: body.ended_at,
      notes: body.notes || '',
      temperature_c: body.temperature_c ?? null,
      attendees: body.attendees.map((a) => s.attendees.find((x) => x.id === a) || attendee(m, a)),
    });
    s.attendance = s.attendees.length;
    s.duration_seconds = Math.round((Date.parse(s.ended_at) - Date.parse(s.started_at)) / 1000);
    count(m, s, 1);
    return result(copy(s));
  }
  return undefined;
}

/** The PUT that gives a class saved later its true times, attendees, notes and temperature (PUT /sessions/{id}). */
export const correction = (session) => ({
  started_at: session.started_at,
  ended_at: session.ended_at,
  attendees: session.attendees.map((a) => a.id).filter(Boolean),
  notes: session.notes,
  temperature_c: session.temperature_c,
  as_known: { attendees: knownNames(session) },
});

// A class sent after it ended says what the device knew of its attendees and venue (`as_known`): what another device
// deleted meanwhile is then kept by that, as for one deleted after the class, and the class is not refused whole.
const knownNames = (session) => Object.fromEntries(session.attendees.filter((a) => a.id).map((a) => [a.id, a.name]));
const present = (place) => Object.fromEntries(Object.entries(place).filter(([, x]) => x !== null && x !== undefined));

/**
 * A class held on the device, once saved, as one write: the body of POST /sessions (its venue by id when the
 * server knows it, else as typed or found), so it never meets a class running on another device.
 */
export function recorded(klass, session) {
  const body = {
    started_at: session.started_at,
    ended_at: session.ended_at,
    attendees: session.attendees.map((a) => a.id).filter(Boolean),
    notes: session.notes || '',
    temperature_c: session.temperature_c ?? null,
    as_known: { attendees: knownNames(session) },
  };
  const v = klass.venue;
  const known = { name: v.name, address: v.address, latitude: v.latitude, longitude: v.longitude };
  if (v.id && !String(v.id).startsWith('tmp-')) {
    body.venue_id = v.id;
    body.as_known.venue = present(known);
  } else body.venue = present(klass.place || { ...known, source: 'typed' });
  return body;
}

/** A class held on the device as the check-in that hands it to the server once it answers: POST /class with its start. */
export function checkInOf(klass) {
  const body = recorded(klass, klass);
  delete body.ended_at;
  delete body.as_known;
  return body;
}

/** What the class held here has that the server's running one lacks, as the body of PATCH /class, or null. */
export function catchUp(running, held) {
  const ids = (c) => c.attendees.map((a) => a.id).filter(Boolean);
  const [there, here] = [ids(running), ids(held)];
  const body = { add: here.filter((id) => !there.includes(id)), remove: there.filter((id) => !here.includes(id)) };
  if ((held.notes || '') !== (running.notes || '')) body.notes = held.notes || '';
  if ((held.temperature_c ?? null) !== (running.temperature_c ?? null)) body.temperature_c = held.temperature_c ?? null;
  return body.add.length || body.remove.length || 'notes' in body || 'temperature_c' in body ? body : null;
}

/** Last writer wins for settings and a venue's star; the toast's words for each write. */
export function describe(method, path, body) {
  const [route] = path.split('?');
  if (route === '/settings') return { label: 'your settings', replace: 'yoga:settings' };
  if (/^\/venues\/[^/]+$/.test(route) && method === 'PUT')
    return { label: `the venue ${body?.name || ''}`.trim(), replace: `yoga:${route}` };
  if (route.startsWith('/students'))
    return {
      label:
        method === 'POST'
          ? `the new student ${body?.name || ''}`.trim()
          : method === 'DELETE'
            ? 'a student’s removal'
            : `the student ${body?.name || ''}`.trim(),
      // Deleted on another device meanwhile: a change is added again (students.js), a removal is done.
      ...(method !== 'POST' && { resolves: ['not_found'] }),
    };
  if (route.startsWith('/student-types'))
    return { label: method === 'DELETE' ? 'a type’s removal' : `the type ${body?.name || ''}`.trim() };
  if (route === '/class' && method === 'POST') return { label: 'the check-in' };
  if (route === '/class') return { label: 'a change to the class' };
  if (route === '/class/end') return { label: body?.action === 'save' ? 'the class' : 'discarding the class' };
  if (route.startsWith('/sessions')) return { label: method === 'DELETE' ? 'a session’s removal' : 'a session' };
  return { label: 'a change' };
}
